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
	writeNames(&b, func(n nameTable) string { return fmt.Sprintf("\n--- %s\nM.%s = {\n", n.doc, n.lua) }, "  %s = '%s',\n", "}\n")
	for _, t := range p.types {
		b.WriteString("\n")
		if t.doc != "" {
			fmt.Fprintf(&b, "--- %s\n", t.doc)
		}
		switch {
		case t.enum != nil:
			fmt.Fprintf(&b, "---@alias agentls.%s %s\n", t.name, strings.Join(quoteAll(t.enum, `"`), "|"))
		case t.basic != "":
			fmt.Fprintf(&b, "---@alias agentls.%s %s\n", t.name, luaType(&ast.Ident{Name: t.basic}))
		case t.union != "":
			fmt.Fprintf(&b, "---@alias agentls.%s agentls.%s\n", t.name, strings.Join(t.members, "|agentls."))
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
				typ, opt := f.typeIn(f.lua, luaType, "|nil")
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
func luaType(e ast.Expr) string { return luaSpelling.of(e) }
