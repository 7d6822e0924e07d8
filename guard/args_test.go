package guard

import (
	"strings"
	"testing"
)

func TestArgsStr(t *testing.T) {
	tests := []struct {
		name, args, key string
		want            string
		present         bool
		errHas          string
	}{
		{"plain", `{"path":"a.plan"}`, "path", "a.plan", true, ""},
		{"upper case key", `{"PATH":"a.plan"}`, "path", "a.plan", true, ""},
		{"dashes and underscores", `{"p-a_th":"a.plan"}`, "path", "a.plan", true, ""},
		{"missing", `{"content":"x"}`, "path", "", false, ""},
		{"null", `{"path":null}`, "path", "", false, ""},
		{"escaped value", `{"path":"a\u002eplan"}`, "path", "a.plan", true, ""},
		{"escaped key", `{"p\u0061th":"a.plan"}`, "path", "a.plan", true, ""},
		{"other keys ignored", `{"path":"a.plan","paths":["b"],"old_string":"x"}`, "path", "a.plan", true, ""},
		{"twice", `{"path":"a","path":"b"}`, "path", "", false, "given twice"},
		{"twice by case", `{"from":"a","From":"b"}`, "from", "", false, "given twice"},
		{"twice by underscore", `{"to":"a","t_o":"b"}`, "to", "", false, "given twice"},
		{"number", `{"path":1}`, "path", "", false, "not a string"},
		{"bool", `{"path":true}`, "path", "", false, "not a string"},
		{"nested object", `{"path":{"path":"a"}}`, "path", "", false, "not a string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := parseArgs([]byte(tt.args))
			if err != nil {
				t.Fatalf("parseArgs: %v", err)
			}
			got, present, err := a.str(tt.key)
			if tt.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errHas) {
					t.Fatalf("str(%q) error = %v, want %q", tt.key, err, tt.errHas)
				}
				return
			}
			if err != nil || got != tt.want || present != tt.present {
				t.Fatalf("str(%q) = %q, %v, %v; want %q, %v", tt.key, got, present, err, tt.want, tt.present)
			}
		})
	}
}

func TestParseArgsRefusesNonObjects(t *testing.T) {
	for _, in := range []string{``, ` `, `null`, `[]`, `"x"`, `1`, `{`, `{"a":1}{"b":2}`, `{"a":1} x`, `{"a":1,}`, "{\"a\":\"\xff\"} \x00"} {
		if _, err := parseArgs([]byte(in)); err == nil {
			t.Errorf("parseArgs(%q): no error", in)
		}
	}
	if _, err := parseArgs([]byte(" {\"a\":1}\n")); err != nil {
		t.Errorf("parseArgs with surrounding space: %v", err)
	}
}

func TestFoldKey(t *testing.T) {
	same := [][2]string{{"path", "PATH"}, {"path", "Pa_Th"}, {"path", "p-a-t-h"}, {"k", "\u212a"}, {"s", "\u017f"}, {"to", "TO"}}
	for _, p := range same {
		if foldKey(p[0]) != foldKey(p[1]) {
			t.Errorf("foldKey(%q) != foldKey(%q)", p[0], p[1])
		}
	}
	differ := [][2]string{{"path", "paths"}, {"path", "path "}, {"from", "form"}, {"to", "t0"}}
	for _, p := range differ {
		if foldKey(p[0]) == foldKey(p[1]) {
			t.Errorf("foldKey(%q) == foldKey(%q)", p[0], p[1])
		}
	}
}
