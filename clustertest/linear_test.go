package clustertest

import (
	"fmt"
	"strings"
	"time"

	"github.com/anishathalye/porcupine"

	"bullshit/engine"
)

// The linearizability model of one game, built on its stored log.
//
// The engine has already judged the log: checkStored replays it and every
// action in it was legal in its order, so each prefix of the log is a state
// of the game, and the model's state is just how long that prefix is (k:
// the first k stored actions have happened). The bots' moves, the resumes
// and the deadlines are in the log but not in the history; the model steps
// over them. An API move's input carries at, the place in the log of the
// action that is that move (same game, seat, kind, play number, cards and
// claim), or -1 if none is.
//
//   - acknowledged: the move must be stored, at or after the point the
//     history has reached (at >= k), and the log moves on past it (k = at+1).
//     So a move acknowledged before another was sent is stored before it.
//   - refused: the server said it changed nothing, so the move may not
//     appear after the point the refusal is placed (at < k): it was never
//     stored, or stored before (a retry's "stale, already done").
//   - unknown (no answer, a timeout, a 5xx): its return is put at the end of
//     the history, and either outcome is accepted: stored later (k = at+1)
//     or a no-op (at < k, or never stored).
//
// Porcupine then searches for an order of the operations, each placed
// within its own call and return, that the model accepts.
type linInput struct {
	op op
	at int
}

func gameModel() porcupine.Model {
	return porcupine.Model{
		Init: func() any { return 0 },
		Step: func(state, input, _ any) (bool, any) {
			k, in := state.(int), input.(linInput)
			switch in.op.Outcome {
			case ok:
				return in.at >= k, in.at + 1
			case refused:
				return in.at < k, k
			default:
				if in.at >= k {
					return true, in.at + 1
				}
				return true, k
			}
		},
		DescribeOperation: func(input, _ any) string {
			in := input.(linInput)
			return fmt.Sprintf("%s %s (%s) -> %s at %d", in.op.id(), in.op.Cards, in.op.Node, in.op.Outcome, in.at)
		},
		DescribeState: func(state any) string { return fmt.Sprintf("%d actions", state.(int)) },
	}
}

// checkLinear checks one game's history of API moves against its stored
// log with porcupine, and describes the history when it isn't
// linearizable.
func checkLinear(s storedGame, ops []op, timeout time.Duration) error {
	if len(ops) == 0 {
		return nil
	}
	where := map[move]int{}
	for i, a := range s.actions {
		if a.Action.Kind != engine.ActResume {
			where[moveOfAction(s.game.ID, a.Action)] = i
		}
	}
	var end time.Duration
	for _, o := range ops {
		end = max(end, o.Return)
	}
	history := make([]porcupine.Operation, 0, len(ops))
	for _, o := range ops {
		at, found := where[o.move]
		if !found {
			at = -1
		}
		ret := o.Return
		if o.Outcome == unknown {
			ret = end + 1
		}
		history = append(history, porcupine.Operation{ClientId: o.Seat, Input: linInput{op: o, at: at},
			Call: int64(o.Call), Output: o.Outcome, Return: int64(ret)})
	}
	res := porcupine.CheckOperationsTimeout(gameModel(), history, timeout)
	if res == porcupine.Ok {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: porcupine finds its API moves %s:\n", s.game.ID, map[porcupine.CheckResult]string{
		porcupine.Illegal: "not linearizable", porcupine.Unknown: "undecided in " + timeout.String()}[res])
	m := gameModel()
	for _, h := range history {
		ret := "end"
		if h.Output.(outcome) != unknown {
			ret = time.Duration(h.Return).String()
		}
		fmt.Fprintf(&b, "  [%v, %s] %s\n", time.Duration(h.Call), ret, m.DescribeOperation(h.Input, h.Output))
	}
	return fmt.Errorf("%s", b.String())
}
