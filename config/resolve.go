package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Resolve merges layers given in increasing precedence (defaults < env <
// user file < workspace file < initializationOptions): maps merge key by
// key, any other value (arrays included) replaces the lower one. The
// merged data is validated against the schema and decoded over Default().
func Resolve(layers ...Source) (Config, error) {
	merged := map[string]any{}
	for _, l := range layers {
		data, err := normalize(l.Data)
		if err != nil {
			return Default(), fmt.Errorf("config layer %s: %w", l.Name, err)
		}
		merge(merged, data)
	}
	if vs := check(merged); len(vs) > 0 {
		msgs := make([]string, len(vs))
		for i, v := range vs {
			msgs[i] = v.message
		}
		return Default(), fmt.Errorf("invalid configuration: %s", strings.Join(msgs, "; "))
	}
	b, err := json.Marshal(merged)
	if err != nil {
		return Default(), fmt.Errorf("encode configuration: %w", err)
	}
	cfg := Default()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return Default(), fmt.Errorf("decode configuration: %w", err)
	}
	return cfg, nil
}

// merge copies src into dst, merging nested maps.
func merge(dst, src map[string]any) {
	for k, v := range src {
		sm, srcIsMap := v.(map[string]any)
		dm, dstIsMap := dst[k].(map[string]any)
		if srcIsMap && dstIsMap {
			merge(dm, sm)
			continue
		}
		if srcIsMap {
			copied := map[string]any{}
			merge(copied, sm)
			v = copied
		}
		dst[k] = v
	}
}

// normalize turns Go values into JSON-like values (numbers as json.Number),
// the form the schema validator and merge expect. It never shares maps
// with its input.
func normalize(m map[string]any) (map[string]any, error) {
	if m == nil {
		return map[string]any{}, nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("not JSON data: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not JSON data: %w", err)
	}
	return v, nil
}
