package schemamsg

import (
	"bytes"
	"fmt"
	"io"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// Compile compiles one in-memory draft 2020-12 schema, named url, with
// format assertions on, as every schema of agentls is compiled. References
// to anything outside the schema itself (files, URLs) are refused.
func Compile(url string, raw []byte) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = true
	c.LoadURL = func(s string) (io.ReadCloser, error) {
		return nil, fmt.Errorf("cannot load %s: only references inside the schema are allowed", s)
	}
	if err := c.AddResource(url, bytes.NewReader(raw)); err != nil {
		return nil, err
	}
	return c.Compile(url)
}
