package guard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
)

// args is a tool call's top-level JSON object, read the way the most lenient
// decoder a tool might use would read it.
type args struct {
	keys   []string
	values []json.RawMessage
}

// parseArgs reads a JSON object. Anything else (invalid JSON, trailing data,
// an array, a string) is an error.
func parseArgs(raw json.RawMessage) (args, error) {
	if !json.Valid(raw) {
		return args{}, errors.New("arguments are not valid JSON")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return args{}, fmt.Errorf("read arguments: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return args{}, errors.New("arguments are not a JSON object")
	}
	var a args
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return args{}, fmt.Errorf("read arguments: %w", err)
		}
		key, ok := tok.(string)
		if !ok {
			return args{}, errors.New("read arguments: object key is not a string")
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return args{}, fmt.Errorf("read argument %q: %w", key, err)
		}
		a.keys = append(a.keys, key)
		a.values = append(a.values, v)
	}
	if _, err := dec.Token(); err != nil {
		return args{}, fmt.Errorf("read arguments: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return args{}, errors.New("arguments have data after the JSON object")
	}
	return a, nil
}

// str returns the string argument called name. Every key that a lenient
// decoder could take for name (letter case folded, `-` and `_` ignored)
// counts: two such keys are ambiguous and an error. present is false when no
// key matches or the value is null; a value that is not a string is an error.
func (a args) str(name string) (value string, present bool, err error) {
	want := foldKey(name)
	found := -1
	for i, k := range a.keys {
		if foldKey(k) != want {
			continue
		}
		if found >= 0 {
			return "", false, fmt.Errorf("argument %q is given twice (as %q and %q)", name, a.keys[found], k)
		}
		found = i
	}
	if found < 0 {
		return "", false, nil
	}
	v := bytes.TrimSpace(a.values[found])
	if string(v) == "null" {
		return "", false, nil
	}
	if len(v) == 0 || v[0] != '"' {
		return "", false, fmt.Errorf("argument %q is not a string", name)
	}
	if err := json.Unmarshal(v, &value); err != nil {
		return "", false, fmt.Errorf("argument %q: %w", name, err)
	}
	return value, true, nil
}

// foldKey folds a JSON object key the widest way a Go decoder matches names:
// encoding/json folds letter case (Unicode simple folding, so "ſ" matches
// "s" and "K" matches "k"), and json/v2's case-insensitive mode also ignores
// `-` and `_`.
func foldKey(k string) string {
	var b strings.Builder
	for _, r := range k {
		if r == '-' || r == '_' {
			continue
		}
		b.WriteRune(unicode.ToUpper(unicode.ToLower(foldRune(r))))
	}
	return b.String()
}

// foldRune maps a rune to the smallest rune of its case-folding orbit, so
// that every member of the orbit folds the same.
func foldRune(r rune) rune {
	min := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f < min {
			min = f
		}
	}
	return min
}
