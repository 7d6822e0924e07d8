package main

import (
	"fmt"
	"go/ast"
	"strings"

	"github.com/agentls/agentls/agentproto"
)

// lua is protocol.lua: the method and command names and the wire types as
// LuaCATS classes (for lua-language-server; Neovim ignores them).
func lua(p *pkg) string {
	var b strings.Builder
	fmt.Fprintf(&b, "-- %s\n-- The agent/* protocol (docs/protocol.md): method names and, as LuaCATS annotations, its types.\n\nlocal M = {}\n\n", header)
	fmt.Fprintf(&b, "--- The protocol version the server advertises (experimental.agent.protocolVersion).\nM.version = %d\n", agentproto.ProtocolVersion)
	b.WriteString("\n--- The result of a method that answers null.\n---@alias agentls.Null nil\n\n--- The params of a method that takes none.\n---@alias agentls.Empty table<string, never>\n")
	table := agentproto.Table()
	names := func(title, doc string, keep func(agentproto.Method) (string, bool)) {
		fmt.Fprintf(&b, "\n--- %s\nM.%s = {\n", doc, title)
		for _, m := range table {
			if name, ok := keep(m); ok {
				fmt.Fprintf(&b, "  %s = '%s',\n", m.Short(), name)
			}
		}
		b.WriteString("}\n")
	}
	names("methods", "The agent/* methods of the LSP face.", func(m agentproto.Method) (string, bool) {
		return m.Name, m.Faces.Has(agentproto.LSP)
	})
	names("commands", "The workspace/executeCommand commands.", func(m agentproto.Method) (string, bool) {
		return m.Command, m.Command != ""
	})
	for _, t := range p.types {
		b.WriteString("\n")
		if t.doc != "" {
			fmt.Fprintf(&b, "--- %s\n", t.doc)
		}
		switch {
		case t.enum != nil:
			quoted := make([]string, len(t.enum))
			for i, v := range t.enum {
				quoted[i] = `"` + v + `"`
			}
			fmt.Fprintf(&b, "---@alias agentls.%s %s\n", t.name, strings.Join(quoted, "|"))
		case t.basic != "":
			fmt.Fprintf(&b, "---@alias agentls.%s %s\n", t.name, luaType(&ast.Ident{Name: t.basic}))
		default:
			parents := ""
			for i, e := range t.embeds {
				if i == 0 {
					parents = " : "
				} else {
					parents += ", "
				}
				parents += "agentls." + e.name
			}
			fmt.Fprintf(&b, "---@class agentls.%s%s\n", t.name, parents)
			for _, f := range t.fields {
				typ := f.lua
				if typ == "" {
					typ = luaType(f.typ)
				}
				opt := ""
				if f.optional {
					opt = "?"
				} else if _, ptr := f.typ.(*ast.StarExpr); ptr {
					typ += "|nil"
				}
				doc := ""
				if f.doc != "" {
					doc = " " + f.doc
				}
				fmt.Fprintf(&b, "---@field %s%s %s%s\n", f.json, opt, typ, doc)
			}
		}
	}
	b.WriteString("\nreturn M\n")
	return b.String()
}

// luaType is a Go type expression as a LuaCATS type.
func luaType(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Ident:
		switch t.Name {
		case "string":
			return "string"
		case "bool":
			return "boolean"
		case "int", "int32", "int64", "uint", "uint32", "uint64":
			return "integer"
		case "float32", "float64":
			return "number"
		case "any":
			return "any"
		}
		return "agentls." + t.Name
	case *ast.StarExpr:
		return luaType(t.X)
	case *ast.ArrayType:
		return luaType(t.Elt) + "[]"
	case *ast.MapType:
		return "table<" + luaType(t.Key) + ", " + luaType(t.Value) + ">"
	}
	return "any"
}
