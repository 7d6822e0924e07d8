package main

import (
	"go/ast"
	"strings"
)

// spelling is how a generated language writes Go's types: the TypeScript
// and the Lua generators share the walk over a type expression.
type spelling struct {
	// builtins are Go's predeclared types, by name.
	builtins map[string]string
	// named is a type of the package.
	named func(name string) string
	// array and mapOf write a slice and a map of written types.
	array func(elem string) string
	mapOf func(key, value string) string
	// other is any other type (json.RawMessage without a tag, interfaces).
	other string
}

// of writes the type expression e.
func (s spelling) of(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Ident:
		if b, ok := s.builtins[t.Name]; ok {
			return b
		}
		return s.named(t.Name)
	case *ast.StarExpr:
		return s.of(t.X)
	case *ast.ArrayType:
		return s.array(s.of(t.Elt))
	case *ast.MapType:
		return s.mapOf(s.of(t.Key), s.of(t.Value))
	}
	return s.other
}

// quoteAll is each value between quote marks q.
func quoteAll(values []string, q string) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = q + v + q
	}
	return out
}

// integers and floats are Go's numeric types.
var integers, floats = []string{"int", "int32", "int64", "uint", "uint32", "uint64"}, []string{"float32", "float64"}

// builtinsOf maps Go's string, bool, numeric and any types.
func builtinsOf(str, boolean, integer, number, anyType string) map[string]string {
	m := map[string]string{"string": str, "bool": boolean, "any": anyType}
	for _, n := range integers {
		m[n] = integer
	}
	for _, n := range floats {
		m[n] = number
	}
	return m
}

// tsSpelling is TypeScript's.
var tsSpelling = spelling{
	builtins: builtinsOf("string", "boolean", "number", "number", "unknown"),
	named:    func(name string) string { return name },
	array: func(el string) string {
		if strings.ContainsAny(el, " |") {
			el = "(" + el + ")"
		}
		return el + "[]"
	},
	mapOf: func(k, v string) string { return "Record<" + k + ", " + v + ">" },
	other: "unknown",
}

// luaSpelling is LuaCATS's.
var luaSpelling = spelling{
	builtins: builtinsOf("string", "boolean", "integer", "number", "any"),
	named:    func(name string) string { return "agentls." + name },
	array:    func(el string) string { return el + "[]" },
	mapOf:    func(k, v string) string { return "table<" + k + ", " + v + ">" },
	other:    "any",
}
