package procstat

import (
	"fmt"
	"strings"
	"testing"
)

// statLine is a /proc/<pid>/stat line of a process named comm with the
// given parent, group and start time (the other fields as a kernel writes
// them).
func statLine(comm string, ppid, pgrp int, start uint64) string {
	f := make([]string, 50)
	for i := range f {
		f[i] = "0"
	}
	f[0] = "S"
	f[1] = fmt.Sprint(ppid)
	f[2] = fmt.Sprint(pgrp)
	f[19] = fmt.Sprint(start)
	return fmt.Sprintf("4242 (%s) %s\n", comm, strings.Join(f, " "))
}

func TestParse(t *testing.T) {
	for _, c := range []struct {
		name, line string
		want       Stat
		err        string
	}{
		{"plain", statLine("bash", 1, 4242, 987654), Stat{PPID: 1, PGRP: 4242, Start: 987654}, ""},
		{"a name with spaces and parentheses", statLine("a) b (c", 7, 8, 9), Stat{PPID: 7, PGRP: 8, Start: 9}, ""},
		{"a name that looks like fields", statLine("x) S 1 1 1", 70, 80, 90), Stat{PPID: 70, PGRP: 80, Start: 90}, ""},
		{"no name", "4242 bash S 1 2 3", Stat{}, "no command name"},
		{"cut short", "4242 (bash) S 1 2 3\n", Stat{}, "fields"},
		{"a parent that is no number", strings.Replace(statLine("bash", 1, 2, 3), ") S 1 ", ") S x ", 1), Stat{}, "ppid"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Parse([]byte(c.line))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("Parse = %+v, %v; want an error naming %q", got, err, c.err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("Parse = %+v, %v; want %+v", got, err, c.want)
			}
		})
	}
}

// FuzzParse: any text parses or fails without a panic, and a kernel's line
// for any command name gives back its fields.
func FuzzParse(f *testing.F) {
	f.Add("bash", 1, 2, uint64(3))
	f.Add("a) b (c", 0, 0, uint64(0))
	f.Fuzz(func(t *testing.T, comm string, ppid, pgrp int, start uint64) {
		Parse([]byte(comm)) // never panics
		if strings.ContainsAny(comm, "\n") {
			return
		}
		want := Stat{PPID: ppid, PGRP: pgrp, Start: start}
		if got, err := Parse([]byte(statLine(comm, ppid, pgrp, start))); err != nil || got != want {
			t.Fatalf("Parse(%q) = %+v, %v; want %+v", comm, got, err, want)
		}
	})
}
