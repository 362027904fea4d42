package game

import "context"

// tokenKey is the context key of the token a request was authenticated with.
type tokenKey struct{}

// WithToken returns a context carrying the token a request was authenticated
// with. The table checks it again when it serves the request: the start
// numbers the seats afresh, and a request whose seat was looked up under the
// old numbers must never see or act as someone else.
func WithToken(ctx context.Context, token string) context.Context {
	return context.WithValue(ctx, tokenKey{}, token)
}

// TokenFrom is the token WithToken put in ctx, if any: a call sent to the
// node that runs the table carries it there, to be checked again.
func TokenFrom(ctx context.Context) (token string, ok bool) {
	token, ok = ctx.Value(tokenKey{}).(string)
	return token, ok
}
