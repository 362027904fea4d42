package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"

	"github.com/labstack/echo/v4"
)

//go:embed static
var staticFiles embed.FS

// asset is one static file held in memory, plain and gzipped, with the hash
// that names its URL.
type asset struct {
	name  string
	url   string
	ctype string
	plain []byte
	gz    []byte
}

// Assets are the embedded static files. Each is served at a URL holding a
// hash of its content, so it may be cached for a year: a new build changes
// the URL of every file that changed.
type Assets struct {
	byURL  map[string]*asset
	byName map[string]*asset
	// webManifest is the web app manifest, made once.
	webManifest []byte
}

// staticPrefix is where the assets are served.
const staticPrefix = "/static/"

// loadAssets reads, hashes and compresses the embedded files once.
func loadAssets() (*Assets, error) {
	a := &Assets{byURL: map[string]*asset{}, byName: map[string]*asset{}}
	err := fs.WalkDir(staticFiles, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".md") {
			return err
		}
		b, err := staticFiles.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		name := path.Base(p)
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		if _, err := zw.Write(b); err != nil {
			return err
		}
		if err := zw.Close(); err != nil {
			return err
		}
		ctype := mime.TypeByExtension(path.Ext(name))
		if path.Ext(name) == ".ico" {
			ctype = "image/x-icon" // not in every system's MIME table
		}
		if ctype == "" {
			ctype = "application/octet-stream"
		}
		x := &asset{name: name, url: staticPrefix + hex.EncodeToString(sum[:6]) + "/" + name, ctype: ctype, plain: b, gz: gz.Bytes()}
		if _, dup := a.byName[name]; dup {
			return fmt.Errorf("web: two static files are named %s", name)
		}
		a.byName[name], a.byURL[x.url] = x, x
		return nil
	})
	if err != nil {
		return nil, err
	}
	a.webManifest, err = a.manifest()
	return a, err
}

// URL is the hashed URL of the static file with that base name.
func (a *Assets) URL(name string) string {
	if x, ok := a.byName[name]; ok {
		return x.url
	}
	panic("web: no static file " + name)
}

// GzipSize is how many bytes the named file takes compressed.
func (a *Assets) GzipSize(name string) int { return len(a.byName[name].gz) }

// serve answers a request for a hashed URL, gzipped when the client takes it.
func (a *Assets) serve(c echo.Context) error {
	x, ok := a.byURL[c.Request().URL.Path]
	if !ok {
		return echo.ErrNotFound
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Add("Vary", "Accept-Encoding")
	body := x.plain
	if acceptsGzip(c.Request()) {
		h.Set("Content-Encoding", "gzip")
		body = x.gz
	}
	return c.Blob(http.StatusOK, x.ctype, body)
}

// acceptsGzip reports whether the request's Accept-Encoding allows gzip.
func acceptsGzip(r *http.Request) bool {
	for part := range strings.SplitSeq(r.Header.Get("Accept-Encoding"), ",") {
		coding, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(coding), "gzip") {
			return strings.ReplaceAll(strings.TrimSpace(q), " ", "") != "q=0"
		}
	}
	return false
}
