package client_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"bullshit/api/client"
	"bullshit/engine"
	"bullshit/engine/bot"
)

// A client reads its seat's view, exactly as the server wrote it, and a bot
// decides the seat's move from that view alone. The server here is a stand-in
// that answers the view route with seat 1's view of a game just dealt.
func ExampleClient_View() {
	game, _ := engine.New(engine.Standard(4), 4, time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v1/games/abcd1234/view" || r.Header.Get("Authorization") != "Bearer seat-1-token" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(game.View(1))
	}))
	defer srv.Close()

	c := client.New(srv.URL, srv.Client()).WithToken("seat-1-token")
	v, err := c.View(context.Background(), "abcd1234")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("seat", v.Seat, "holds", v.Hand, "and can", v.Can)

	b, _ := bot.New(bot.Medium, bot.Honest, 7)
	a, ok := b.Choose(v)
	fmt.Println("the honest bot decides:", ok, a.Kind, a.Cards)
	// Output:
	// seat 1 holds [AD AC 2H 2D 3H 6S 8S 9D TS TC QS KS KD] and can [play]
	// the honest bot decides: true play [AD AC]
}
