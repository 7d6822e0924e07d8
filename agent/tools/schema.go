package tools

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// schemaOf derives the JSON Schema of a tool's parameters from its params
// struct: an object whose properties are the struct's JSON fields (embedded
// structs flattened), nothing else allowed. A field is required unless its
// json tag says omitempty. Its type gives its schema: string, boolean,
// integer, number, array (of the element's schema), object (a struct, nested
// by the same rules; a map: any object), or {} (an interface: any value).
// These tags add to a field's schema:
//
//	description:"…"   the field's description (none when the name says it all)
//	enum:"a,b,c"       a string field's allowed values
//	default:"…"        the default, in the field's type
//	minimum:"0"        an integer or number field's bounds (and maximum)
//	minItems:"1"       an array field's length bounds (and maxItems)
//
// Keys come out sorted and required in field order, as json.Marshal writes a
// map: the bytes are what agent/tools/testdata/tooldefs.golden.jsonl pins.
func schemaOf(t reflect.Type) (json.RawMessage, error) {
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("params type %s is not a struct", t)
	}
	s, err := deriver{}.typeSchema(t)
	if err != nil {
		return nil, err
	}
	return json.Marshal(s)
}

// deriver derives schemas; it holds the struct types being derived, since a
// struct that contains itself has no finite schema.
type deriver map[reflect.Type]bool

// typeSchema is the schema of a Go type.
func (d deriver) typeSchema(t reflect.Type) (map[string]any, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}, nil
	case reflect.Bool:
		return map[string]any{"type": "boolean"}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}, nil
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}, nil
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return nil, fmt.Errorf("type %s: JSON writes bytes as base64; use a string", t)
		}
		items, err := d.typeSchema(t.Elem())
		if err != nil {
			return nil, err
		}
		return map[string]any{"type": "array", "items": items}, nil
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil, fmt.Errorf("map type %s: JSON object keys are strings", t)
		}
		return map[string]any{"type": "object"}, nil
	case reflect.Interface:
		return map[string]any{}, nil
	case reflect.Struct:
		if d[t] {
			return nil, fmt.Errorf("type %s contains itself", t)
		}
		d[t] = true
		defer delete(d, t)
		props := map[string]any{}
		required := []string{}
		if err := d.addFields(t, props, &required); err != nil {
			return nil, err
		}
		return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}, nil
	}
	return nil, fmt.Errorf("type %s has no JSON Schema", t)
}

// addFields adds the schemas of t's JSON fields to props, and the names of
// the required ones to required.
func (d deriver) addFields(t reflect.Type, props map[string]any, required *[]string) error {
	for f := range t.Fields() {
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		et := f.Type
		if et.Kind() == reflect.Pointer {
			et = et.Elem()
		}
		if f.Anonymous && name == "" && et.Kind() == reflect.Struct {
			if err := d.addFields(et, props, required); err != nil {
				return err
			}
			continue
		}
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, dup := props[name]; dup {
			return fmt.Errorf("%s: two fields are called %q", t, name)
		}
		s, err := d.fieldSchema(f)
		if err != nil {
			return fmt.Errorf("%s.%s: %w", t, f.Name, err)
		}
		props[name] = s
		if !strings.Contains(","+opts+",", ",omitempty,") {
			*required = append(*required, name)
		}
	}
	return nil
}

// fieldSchema is the schema of a struct field: its type's, with its tags.
func (d deriver) fieldSchema(f reflect.StructField) (map[string]any, error) {
	s, err := d.typeSchema(f.Type)
	if err != nil {
		return nil, err
	}
	typ, _ := s["type"].(string)
	if d := f.Tag.Get("description"); d != "" {
		s["description"] = d
	}
	if e, ok := f.Tag.Lookup("enum"); ok {
		if typ != "string" {
			return nil, fmt.Errorf("enum on %s", schemaTypeName(typ))
		}
		s["enum"] = strings.Split(e, ",")
	}
	if v, ok := f.Tag.Lookup("default"); ok {
		if s["default"], err = parseTagValue(typ, v); err != nil {
			return nil, fmt.Errorf("default: %w", err)
		}
	}
	for _, key := range []string{"minimum", "maximum"} {
		if v, ok := f.Tag.Lookup(key); ok {
			if typ != "integer" && typ != "number" {
				return nil, fmt.Errorf("%s on %s", key, schemaTypeName(typ))
			}
			if s[key], err = parseTagValue(typ, v); err != nil {
				return nil, fmt.Errorf("%s: %w", key, err)
			}
		}
	}
	for _, key := range []string{"minItems", "maxItems"} {
		if v, ok := f.Tag.Lookup(key); ok {
			if typ != "array" {
				return nil, fmt.Errorf("%s on %s", key, schemaTypeName(typ))
			}
			if s[key], err = parseTagValue("integer", v); err != nil {
				return nil, fmt.Errorf("%s: %w", key, err)
			}
		}
	}
	return s, nil
}

// parseTagValue reads a tag's value as a JSON value of schema type typ.
func parseTagValue(typ, v string) (any, error) {
	switch typ {
	case "string":
		return v, nil
	case "integer":
		return strconv.Atoi(v)
	case "number":
		return strconv.ParseFloat(v, 64)
	case "boolean":
		return strconv.ParseBool(v)
	}
	return nil, fmt.Errorf("no tag value for %s", schemaTypeName(typ))
}

// schemaTypeName names a schema type for an error, with its article.
func schemaTypeName(typ string) string {
	switch typ {
	case "":
		return "value of any type"
	case "integer", "array", "object":
		return "an " + typ
	}
	return "a " + typ
}
