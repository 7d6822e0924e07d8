package agent

import (
	"bytes"
	"encoding/json"
	"testing"
)

// sameAsMarshal fails t unless a direct writer's output for v (got, err) is
// what json.Marshal writes for it: the same bytes, or both fail.
func sameAsMarshal(t testing.TB, writer string, v any, got []byte, err error) {
	t.Helper()
	want, werr := json.Marshal(v)
	if (err != nil) != (werr != nil) {
		t.Fatalf("%s: error %v, json.Marshal's %v", writer, err, werr)
	}
	if err == nil && !bytes.Equal(got, want) {
		t.Fatalf("%s:\n%s\njson.Marshal:\n%s", writer, got, want)
	}
}
