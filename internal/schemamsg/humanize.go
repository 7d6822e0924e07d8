// Package schemamsg is where agentls meets
// github.com/santhosh-tekuri/jsonschema/v5 (v5.3.1): it compiles in-memory
// schemas one way for every package (Compile), and turns the validation
// output into short messages for people: it rewrites the validator's leaf
// messages, tells the lines that only group other failures, and decodes the
// JSON pointers it reports.
//
// It imports nothing of this module, so any package may use it.
package schemamsg

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Messages of jsonschema/v5 (v5.3.1), one pattern per rewritten form.
var (
	enumRE      = regexp.MustCompile(`^value must be one of (.*)$`)
	constRE     = regexp.MustCompile(`^value must be (.*)$`)
	patternRE   = regexp.MustCompile(`^does not match pattern '(.*)'$`)
	lengthRE    = regexp.MustCompile(`^length must be [<>]= (\d+), but got (\d+)$`)
	itemsRE     = regexp.MustCompile(`^(?:minimum|maximum) (\d+) items required, but found (\d+) items$`)
	requiredRE  = regexp.MustCompile(`^missing properties: (.*)$`)
	additionRE  = regexp.MustCompile(`^additionalProperties (.*) not allowed$`)
	formatRE    = regexp.MustCompile(`^.* is not valid '(.*)'$`)
	boundRE     = regexp.MustCompile(`^must be ([<>]=?) (\S+) but found (\S+)$`)
	uniqueRE    = regexp.MustCompile(`^items at index (\d+) and (\d+) are equal$`)
	goLiteralRE = regexp.MustCompile(`^(?:"(?:[^"\\]|\\.)*"|[^,]*)`)
)

// Humanize rewrites the message msg that the validator gave for the failing
// keyword kw (as Keyword returns it), e.g. "must be one of a, b" for an
// enum. A message it does not recognise is returned unchanged.
func Humanize(kw, msg string) string {
	switch kw {
	case "enum":
		if m := enumRE.FindStringSubmatch(msg); m != nil {
			return "must be one of " + strings.Join(goLiterals(m[1]), ", ")
		}
		if m := constRE.FindStringSubmatch(msg); m != nil {
			return "must be " + strings.Join(goLiterals(m[1]), ", ")
		}
		if msg == "enum failed" {
			return "must be one of the allowed values"
		}
	case "const":
		if m := constRE.FindStringSubmatch(msg); m != nil {
			return "must be " + strings.Join(goLiterals(m[1]), ", ")
		}
		if msg == "const failed" {
			return "must be the allowed value"
		}
	case "pattern":
		if m := patternRE.FindStringSubmatch(msg); m != nil {
			return "must match " + unquoteSingle(m[1])
		}
	case "minLength", "maxLength":
		if m := lengthRE.FindStringSubmatch(msg); m != nil {
			return "must be " + bound(kw == "maxLength") + " " + m[1] + " " + plural(m[1], "character", "characters") + " long (got " + m[2] + ")"
		}
	case "minItems", "maxItems":
		if m := itemsRE.FindStringSubmatch(msg); m != nil {
			return "must have " + bound(kw == "maxItems") + " " + m[1] + " " + plural(m[1], "item", "items") + " (got " + m[2] + ")"
		}
	case "required":
		if m := requiredRE.FindStringSubmatch(msg); m != nil {
			names := singleQuoted(m[1])
			return "missing required " + plural(strconv.Itoa(len(names)), "property", "properties") + ": " + strings.Join(names, ", ")
		}
	case "additionalProperties":
		if names, ok := UnknownProperties(msg); ok {
			sort.Strings(names)
			return "unknown " + plural(strconv.Itoa(len(names)), "property", "properties") + ": " + strings.Join(names, ", ")
		}
	case "format":
		if m := formatRE.FindStringSubmatch(msg); m != nil {
			return "must be a valid " + unquoteSingle(m[1])
		}
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		if m := boundRE.FindStringSubmatch(msg); m != nil {
			return "must be " + m[1] + " " + m[2] + " (got " + m[3] + ")"
		}
	case "uniqueItems":
		if m := uniqueRE.FindStringSubmatch(msg); m != nil {
			return "must not repeat items (items " + m[1] + " and " + m[2] + " are equal)"
		}
	}
	return msg
}

// UnknownProperties returns the property names, unquoted and in the
// validator's order, that an additionalProperties message lists; ok is
// false when msg is not such a message.
func UnknownProperties(msg string) (names []string, ok bool) {
	m := additionRE.FindStringSubmatch(msg)
	if m == nil {
		return nil, false
	}
	return singleQuoted(m[1]), true
}

// bound words the limit of a min/max keyword.
func bound(upper bool) string {
	if upper {
		return "at most"
	}
	return "at least"
}

// plural picks the word for the count n (a decimal number).
func plural(n, one, many string) string {
	if n == "1" {
		return one
	}
	return many
}
