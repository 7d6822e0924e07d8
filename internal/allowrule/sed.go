package allowrule

import (
	"fmt"
	"strings"
)

// sedOperands: sed's script is an operand (or the value of -e), and GNU
// sed's script can run commands (`e`, the `e` flag of `s`), write files
// (`w`, `W`, the `w` flag) and read them (`r`, `R`). A script the rule's
// wildcard matched must hold none of these; a script sedScriptRisk cannot
// read counts as holding one.
func sedOperands(words []string, from int) string {
	for _, s := range sedScripts(words) {
		if s.at < from {
			continue // the rule spells it
		}
		if why := sedScriptRisk(s.text); why != "" {
			return fmt.Sprintf("the sed script `%s` %s", s.text, why)
		}
	}
	return ""
}

// sedScriptIndices are the words that hold sed's scripts.
func sedScriptIndices(words []string) []int {
	var out []int
	for _, s := range sedScripts(words) {
		out = append(out, s.at)
	}
	return out
}

// sedScript is one script of a sed command line and the word holding it.
type sedScript struct {
	text string
	at   int
}

// sedScripts finds sed's scripts: the values of -e/--expression, or else
// the first operand.
func sedScripts(words []string) []sedScript {
	type script = sedScript
	var scripts []script
	explicit := false
	for i := 1; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--":
			i = len(words)
		case strings.HasPrefix(w, "--"):
			name, val, hasVal := strings.Cut(w[2:], "=")
			if name != "" && strings.HasPrefix("expression", name) {
				explicit = true
				if hasVal {
					scripts = append(scripts, script{val, i})
				} else if i+1 < len(words) {
					scripts = append(scripts, script{words[i+1], i + 1})
					i++
				}
			} else if !hasVal && name != "" && (strings.HasPrefix("line-length", name) || strings.HasPrefix("file", name)) {
				i++
			}
		case strings.HasPrefix(w, "-") && w != "-":
			for j := 1; j < len(w); j++ {
				if c := w[j]; c == 'e' || c == 'f' || c == 'l' {
					rest := w[j+1:]
					if rest == "" && i+1 < len(words) {
						i++
						rest = words[i]
					}
					if c == 'e' {
						explicit = true
						scripts = append(scripts, script{rest, i})
					}
					break
				}
			}
		}
	}
	if !explicit {
		if i := firstOperand(words, 1, setOf("-l", "-f", "--line-length", "--file")); i < len(words) {
			scripts = append(scripts, script{words[i], i})
		}
	}
	return scripts
}

// sedScriptRisk says what in a GNU sed script runs, writes or reads
// something, or that the script cannot be read here, or "" for a script of
// harmless commands only.
func sedScriptRisk(s string) string {
	i, n := 0, len(s)
	unreadable := "cannot be read here, so it may run or write something"
	for i < n {
		for i < n && strings.IndexByte(" \t\n;{}!", s[i]) >= 0 {
			i++
		}
		if i == n {
			break
		}
		// addresses: a number, $, /re/, \cREc, first~step, +N, ~N, joined by ','
		for i < n {
			switch {
			case s[i] >= '0' && s[i] <= '9' || s[i] == '$' || s[i] == '+' || s[i] == '~':
				i++
				for i < n && (s[i] >= '0' && s[i] <= '9' || s[i] == '~') {
					i++
				}
			case s[i] == '/' || s[i] == '\\':
				d := byte('/')
				if s[i] == '\\' {
					if i+1 == n {
						return unreadable
					}
					i++
					d = s[i]
				}
				end := sedDelimited(s, i+1, d)
				if end < 0 {
					return unreadable
				}
				i = end + 1
				for i < n && (s[i] == 'I' || s[i] == 'M') {
					i++
				}
			}
			for i < n && (s[i] == ' ' || s[i] == '\t') {
				i++
			}
			if i < n && s[i] == ',' {
				i++
				continue
			}
			break
		}
		for i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '!') {
			i++
		}
		if i == n {
			return unreadable
		}
		c := s[i]
		i++
		switch {
		case c == '{' || c == '}' || c == ';' || c == '\n':
		case strings.IndexByte("=dDgGhHlnNpPxzFqQLv", c) >= 0:
			for i < n && (s[i] >= '0' && s[i] <= '9' || s[i] == ' ' || s[i] == '\t' || s[i] == '.') {
				i++
			}
		case c == ':' || c == 'b' || c == 't' || c == 'T' || c == '#':
			for i < n && s[i] != '\n' && (c == '#' || s[i] != ';') {
				i++
			}
		case c == 'a' || c == 'i' || c == 'c':
			for i < n && s[i] != '\n' {
				if s[i] == '\\' {
					i++
				}
				i++
			}
		case c == 'y' || c == 's':
			if i == n || s[i] == '\n' || s[i] == '\\' {
				return unreadable
			}
			d := s[i]
			end := sedDelimited(s, i+1, d)
			if end < 0 {
				return unreadable
			}
			if end = sedDelimited(s, end+1, d); end < 0 {
				return unreadable
			}
			i = end + 1
			for c == 's' && i < n && strings.IndexByte(" \t;\n}", s[i]) < 0 {
				switch f := s[i]; {
				case f == 'e':
					return "runs its pattern space as a command (the `e` flag of `s`)"
				case f == 'w':
					return "writes a file (the `w` flag of `s`)"
				case strings.IndexByte("gpiImM0123456789", f) < 0:
					return unreadable
				}
				i++
			}
		case c == 'e':
			return "runs a command (`e`)"
		case c == 'w' || c == 'W':
			return "writes a file (`" + string(c) + "`)"
		case c == 'r' || c == 'R':
			return "reads a file (`" + string(c) + "`)"
		default:
			return unreadable
		}
	}
	return ""
}

// sedDelimited returns the index of the first unescaped d at or after i
// (a backslash escapes the next character), or -1.
func sedDelimited(s string, i int, d byte) int {
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case d:
			return i
		}
	}
	return -1
}
