package slash

import (
	"strings"
	"testing"
)

// FuzzNamedArgs: a command's argument text never panics the
// parser, and every argument it returns is one the prompt declares.
func FuzzNamedArgs(f *testing.F) {
	f.Add(`city=Lyon state="New York"`)
	f.Add(`"unclosed`)
	f.Add(`just some text`)
	f.Add(`city='a b' city=c`)
	p := []Param{{Name: "city", Required: true}, {Name: "state"}}
	one := []Param{{Name: "text"}}
	f.Fuzz(func(t *testing.T, text string) {
		for _, pr := range [][]Param{p, one} {
			args, err := NamedArgs(pr, text)
			if err != nil {
				continue
			}
			for k := range args {
				known := false
				for _, a := range pr {
					known = known || a.Name == k
				}
				if !known {
					t.Fatalf("argument %q is not one of the command's", k)
				}
			}
			for _, a := range pr {
				if _, ok := args[a.Name]; a.Required && !ok {
					t.Fatalf("required %q missing without an error", a.Name)
				}
			}
		}
	})
}

// TestNamedArgs: how a command's text becomes its arguments.
func TestNamedArgs(t *testing.T) {
	two := []Param{{Name: "city", Required: true}, {Name: "state"}}
	one := []Param{{Name: "text", Required: true}}
	var none []Param
	tests := []struct {
		name    string
		p       []Param
		text    string
		want    map[string]string
		wantErr string
	}{
		{"named", two, `city=Lyon`, map[string]string{"city": "Lyon"}, ""},
		{"quoted value", two, `city="New York" state='NY'`, map[string]string{"city": "New York", "state": "NY"}, ""},
		{"missing required", two, `state=NY`, nil, "missing required argument(s) city"},
		{"unknown name", two, `town=Lyon`, nil, "give the arguments as name=value"},
		{"unclosed quote", two, `city="Lyon`, nil, "not closed"},
		{"one argument takes the text", one, `summarise this, please`, map[string]string{"text": "summarise this, please"}, ""},
		{"one argument named", one, `text=hi`, map[string]string{"text": "hi"}, ""},
		{"none given, one required", one, ``, nil, "missing required argument(s) text"},
		{"no arguments", none, ``, map[string]string{}, ""},
		{"no arguments, text given", none, `extra`, nil, "give the arguments as name=value"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := NamedArgs(tc.p, tc.text)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || len(got) != len(tc.want) {
				t.Fatalf("got %v, %v; want %v", got, err, tc.want)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
		})
	}
}
