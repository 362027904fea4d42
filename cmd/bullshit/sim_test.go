package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestOutputReplacesItsSection(t *testing.T) {
	tests := []struct {
		name    string
		doc     string
		want    string
		wantErr bool
	}{
		{
			name: "replaces only between the markers",
			doc:  "# Title\n\n<!-- sim:begin -->\nold table\n<!-- sim:end -->\n\nprose after\n",
			want: "# Title\n\n<!-- sim:begin -->\nnew table\n<!-- sim:end -->\n\nprose after\n",
		},
		{
			name: "fills an empty section",
			doc:  "<!-- sim:begin -->\n<!-- sim:end -->\n",
			want: "<!-- sim:begin -->\nnew table\n<!-- sim:end -->\n",
		},
		{name: "no markers", doc: "# Title\n", wantErr: true},
		{name: "markers out of order", doc: "<!-- sim:end -->\n<!-- sim:begin -->\n", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "doc.md")
			if err := os.WriteFile(path, []byte(tt.doc), 0o644); err != nil {
				t.Fatal(err)
			}
			err := output(path, "sim", "new table\n")
			if (err != nil) != tt.wantErr {
				t.Fatalf("got error %v, want error %v", err, tt.wantErr)
			}
			got, _ := os.ReadFile(path)
			if tt.wantErr {
				tt.want = tt.doc // a failed replacement leaves the file alone
			}
			if string(got) != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
