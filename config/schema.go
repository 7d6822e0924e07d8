package config

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/agentls/agentls/internal/schemamsg"
)

// SchemaJSON is the JSON Schema (draft 2020-12) of the configuration. The
// same bytes are published as agentls.schema.json at the repository root
// for YAML language servers.
//
//go:embed schema.json
var SchemaJSON []byte

const schemaURL = "mem://agentls/config.schema.json"

// schema is the compiled SchemaJSON; schemaDoc is its decoded form, used to
// suggest property names.
var schema, schemaDoc = mustCompile()

func mustCompile() (*jsonschema.Schema, map[string]any) {
	s, err := schemamsg.Compile(schemaURL, SchemaJSON)
	if err != nil {
		panic(fmt.Sprintf("config schema: %v", err))
	}
	var doc map[string]any
	if err := json.Unmarshal(SchemaJSON, &doc); err != nil {
		panic(fmt.Sprintf("config schema: %v", err))
	}
	return s, doc
}

// violation is one schema failure: where (a JSON pointer into the
// validated value), what, and for unknown keys the key.
type violation struct {
	location string
	message  string
	unknown  string // the unknown key, for additionalProperties failures
	suggest  string // a known key close to unknown
}

// check validates a layer's data against the schema.
func check(data any) []violation {
	err := schema.Validate(data)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []violation{{message: strings.TrimPrefix(err.Error(), "jsonschema: ")}}
	}
	var out []violation
	seen := map[string]bool{}
	for _, e := range ve.BasicOutput().Errors {
		if schemamsg.IsGrouping(e.Error) {
			continue
		}
		kw := schemamsg.Keyword(e.KeywordLocation)
		if kw == "additionalProperties" {
			if names, ok := schemamsg.UnknownProperties(e.Error); ok {
				known := knownKeys(e.AbsoluteKeywordLocation)
				for _, k := range names {
					v := violation{location: e.InstanceLocation, unknown: k, suggest: closest(k, known)}
					v.message = unknownMessage(pathOf(e.InstanceLocation), k, v.suggest)
					if key := v.location + "\x00" + v.message; !seen[key] {
						seen[key] = true
						out = append(out, v)
					}
				}
				continue
			}
		}
		v := violation{location: e.InstanceLocation, message: schemamsg.Humanize(kw, e.Error)}
		if p := pathOf(e.InstanceLocation); p != "" {
			v.message = p + ": " + v.message
		}
		if key := v.location + "\x00" + v.message; !seen[key] {
			seen[key] = true
			out = append(out, v)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].message < out[j].message })
	return out
}

// unknownMessage describes an unknown key under the object at path.
func unknownMessage(path, key, suggest string) string {
	full := key
	if path != "" {
		full = path + "." + key
	}
	msg := fmt.Sprintf("unknown key %q", full)
	if suggest != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", suggest)
	}
	return msg
}

// knownKeys lists the properties of the schema object that holds the
// failing additionalProperties keyword.
func knownKeys(absLoc string) []string {
	_, ptr, _ := strings.Cut(absLoc, "#")
	ptr = strings.TrimSuffix(ptr, "/additionalProperties")
	var cur any = schemaDoc
	for _, tok := range schemamsg.Tokens(ptr) {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[tok]
	}
	m, _ := cur.(map[string]any)
	props, _ := m["properties"].(map[string]any)
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// closest is the known key nearest to key by edit distance, if it is near
// enough to be a likely typo.
func closest(key string, known []string) string {
	best, bestDist := "", 0
	for _, k := range known {
		d := editDistance(strings.ToLower(key), k)
		if best == "" || d < bestDist {
			best, bestDist = k, d
		}
	}
	if best == "" || bestDist > max(2, len(key)/3) {
		return ""
	}
	return best
}

// editDistance is the Damerau–Levenshtein distance (with adjacent
// transpositions) between a and b.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
