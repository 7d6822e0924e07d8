package sandbox

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzSpecRoundTrip: the spec is what the launcher enforces, handed over
// encoded on its command line. Every spec agentls encodes decodes to the
// very same rules (paths byte for byte: a rule naming another path guards
// nothing), and arbitrary text decodes to a spec or an error without a
// panic.
func FuzzSpecRoundTrip(f *testing.F) {
	f.Add("/w\x00/w/.git\x00/home/u/.ssh", "PATH\x00/usr/bin", true, 6, "eyJsYW5kbG9jayI6dHJ1ZX0")
	f.Add("/home/j\xf6rg/.ssh", "LANG\x00C", false, 0, "")
	f.Add("/tmp/x y\x00/a\\b", "", true, 3, "not base64!")
	f.Fuzz(func(t *testing.T, paths, env string, landlock bool, abi int, text string) {
		ps := strings.Split(paths, "\x00")
		kv := strings.SplitN(env, "\x00", 2)
		s := spec{Landlock: landlock, LandlockABI: abi, Sockets: true, Writable: ps, ReadOnly: ps, Deny: ps, Fixed: ps, PathDeny: ps, Unset: kv}
		if len(kv) == 2 {
			s.Set = map[string]string{kv[0]: kv[1]}
		}
		enc, err := s.encode()
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		back, err := decodeSpec(enc)
		if err != nil {
			t.Fatalf("decode what encode wrote: %v", err)
		}
		if !reflect.DeepEqual(back, s) {
			t.Fatalf("the launcher would enforce\n%+v\nnot\n%+v", back, s)
		}
		if _, err := decodeSpec(text); err != nil && !strings.HasPrefix(err.Error(), "policy: ") {
			t.Fatalf("decode error %q does not say it is the policy's", err)
		}
	})
}
