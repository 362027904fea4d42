package api

import (
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"bullshit/live"
)

// maxOffset is as far into a list as a page may start: paging further
// would read that many rows to skip them.
const maxOffset = 100000

// searchQuery reads the list's player and offset parameters.
func searchQuery(c echo.Context) (live.Query, error) {
	var q live.Query
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
