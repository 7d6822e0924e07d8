package agent

import (
	"bytes"
	"encoding/json"
	"reflect"
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

// writesEveryField fails t when a type a direct writer encodes has gained
// (or lost) a field: each type must have the number of fields given, those
// the writer knows.
func writesEveryField(t *testing.T, writer string, types map[reflect.Type]int) {
	t.Helper()
	for typ, want := range types {
		if n := typ.NumField(); n != want {
			t.Errorf("%s has %d fields, %s writes %d: teach it the new ones (and this test)", typ, n, writer, want)
		}
	}
}
