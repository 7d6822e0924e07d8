package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// infraFiles declare the table itself, not wire types.
var infraFiles = map[string]bool{"doc.go": true, "table.go": true, "methods.go": true, "version.go": true}

// pkg is the wire types of the package, in source order (files by name).
type pkg struct {
	types  []typeDecl
	byName map[string]*typeDecl
}

// typeDecl is one exported type: a struct, or a string type with constants
// (an enum).
type typeDecl struct {
	name   string
	doc    string
	fields []field  // a struct's fields
	embeds []embed  // a struct's embedded types
	enum   []string // an enum's values
	basic  string   // a named basic type without constants
	// union is the marker method of an interface: the type is one of the
	// package's types that have it (members, in source order).
	union   string
	members []string
}

type embed struct {
	name    string
	pointer bool // embedded through a pointer: its fields may be absent
}

// field is one JSON member of a struct.
type field struct {
	json     string
	doc      string
	typ      ast.Expr
	optional bool // omitempty
	ts, lua  string
}

func parsePackage(dir string) (*pkg, error) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", dir, err)
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") && !infraFiles[n] {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	p := &pkg{byName: map[string]*typeDecl{}}
	enums := map[string][]string{}
	implementers := map[string][]string{} // marker method → receiver types

	for _, n := range names {
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.ParseComments)
		if err != nil {
			return nil, fmt.Errorf("parse %s: %w", n, err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && len(fd.Recv.List) == 1 {
				if id, ok := fd.Recv.List[0].Type.(*ast.Ident); ok {
					implementers[fd.Name.Name] = append(implementers[fd.Name.Name], id.Name)
				}
				continue
			}
			g, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			switch g.Tok {
			case token.TYPE:
				for _, s := range g.Specs {
					ts := s.(*ast.TypeSpec)
					if !ts.Name.IsExported() {
						continue
					}
					doc := g.Doc
					if ts.Doc != nil {
						doc = ts.Doc
					}
					td, err := typeOf(ts, doc)
					if err != nil {
						return nil, fmt.Errorf("%s: %w", n, err)
					}
					p.types = append(p.types, td)
				}
			case token.CONST:
				for _, s := range g.Specs {
					vs := s.(*ast.ValueSpec)
					id, ok := vs.Type.(*ast.Ident)
					if !ok || len(vs.Values) != 1 {
						continue
					}
					lit, ok := vs.Values[0].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					v, _ := strconv.Unquote(lit.Value)
					enums[id.Name] = append(enums[id.Name], v)
				}
			}
		}
	}
	for i := range p.types {
		t := &p.types[i]
		if vals, ok := enums[t.name]; ok && t.basic == "string" {
			t.enum, t.basic = vals, ""
		}
		if t.union != "" {
			t.members = implementers[t.union]
			if len(t.members) == 0 {
				return nil, fmt.Errorf("%s: no type has its method %s", t.name, t.union)
			}
		}
		p.byName[t.name] = t
	}
	return p, nil
}

func typeOf(ts *ast.TypeSpec, doc *ast.CommentGroup) (typeDecl, error) {
	td := typeDecl{name: ts.Name.Name, doc: docText(doc)}
	switch t := ts.Type.(type) {
	case *ast.StructType:
		for _, f := range t.Fields.List {
			if len(f.Names) == 0 { // embedded
				e := embed{}
				typ := f.Type
				if st, ok := typ.(*ast.StarExpr); ok {
					e.pointer, typ = true, st.X
				}
				id, ok := typ.(*ast.Ident)
				if !ok {
					return td, fmt.Errorf("%s: embedded %T is not a type of the package", td.name, typ)
				}
				e.name = id.Name
				td.embeds = append(td.embeds, e)
				continue
			}
			tag := ""
			if f.Tag != nil {
				tag, _ = strconv.Unquote(f.Tag.Value)
			}
			st := reflect.StructTag(tag)
			name, opts, _ := strings.Cut(st.Get("json"), ",")
			if name == "-" || !f.Names[0].IsExported() {
				continue
			}
			if name == "" {
				return td, fmt.Errorf("%s.%s has no json name", td.name, f.Names[0].Name)
			}
			td.fields = append(td.fields, field{
				json: name, doc: docText(f.Doc), typ: f.Type,
				optional: strings.Contains(","+opts+",", ",omitempty,"),
				ts:       st.Get("ts"), lua: st.Get("lua"),
			})
		}
	case *ast.Ident:
		td.basic = t.Name
	case *ast.InterfaceType:
		if t.Methods == nil || len(t.Methods.List) != 1 || len(t.Methods.List[0].Names) != 1 {
			return td, fmt.Errorf("%s: a union is an interface of one marker method", td.name)
		}
		td.union = t.Methods.List[0].Names[0].Name
	default:
		return td, fmt.Errorf("%s: a %T type cannot be generated", td.name, t)
	}
	return td, nil
}

// docText is a comment's text on one line each paragraph, "" for none.
func docText(g *ast.CommentGroup) string {
	if g == nil {
		return ""
	}
	return strings.TrimSpace(strings.Join(strings.Fields(g.Text()), " "))
}

// typeIn is the field's type in a target language: its tag's when it has
// one, else conv's of its Go type; a pointer that is not optional may be
// null (orNull added). opt is "?" for an optional field.
func (f field) typeIn(tag string, conv func(ast.Expr) string, orNull string) (typ, opt string) {
	typ = tag
	if typ == "" {
		typ = conv(f.typ)
	}
	if f.optional {
		return typ, "?"
	}
	if _, ptr := f.typ.(*ast.StarExpr); ptr {
		typ += orNull
	}
	return typ, ""
}
