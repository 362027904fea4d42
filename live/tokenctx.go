package live

import "context"

// TokenFrom is the token WithToken put in ctx, if any: a call sent to the
// node that runs the table carries it there, to be checked again.
func TokenFrom(ctx context.Context) (token string, ok bool) {
	token, ok = ctx.Value(tokenKey{}).(string)
	return token, ok
}
