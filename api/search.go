package api

import (
	"strconv"
	"strings"

	"bullshit/game"

	"github.com/labstack/echo/v4"
)

// maxOffset is as far into a list as a page may start: paging further
// would read that many rows to skip them.
const maxOffset = 100000

// searchQuery reads the list's player and offset parameters.
func searchQuery(c echo.Context) (game.Query, error) {
	var q game.Query
	// The runtime checks the name, as it checks every name.
	q.Player = strings.TrimSpace(c.QueryParam("player"))
	if o := c.QueryParam("offset"); o != "" {
		n, err := strconv.Atoi(o)
		if err != nil || n < 0 || n > maxOffset {
			return q, invalid("The offset is 0 to " + strconv.Itoa(maxOffset) + ".")
		}
		q.Offset = n
	}
	return q, nil
}
