package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"github.com/agentls/agentls/internal/atomicfile"
	"io"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/agentls/agentls/config"
)

// loginAnswers are what `agentls login` asks.
type loginAnswers struct {
	provider, baseURL, model, key string
}

// runLogin is `agentls login`: it asks on the terminal (or reads from stdin,
// one answer a line) for the provider, base URL, model and API key; it
// writes the key to a 0600 `credentials` file beside the user's
// config.yaml and sets model.provider, model.base_url, model.name and
// model.api_key_file in config.yaml, keeping every other key and comment.
// ACP clients run it for the agentls-login terminal authentication.
func runLogin(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "agentls login: unexpected arguments %q\n", args)
		return 2
	}
	file := config.UserFile(getenv)
	if file == "" {
		fmt.Fprintln(stderr, "agentls login: no configuration folder: set XDG_CONFIG_HOME or HOME")
		return 1
	}
	in := bufio.NewReader(stdin)
	fmt.Fprintf(stdout, "agentls login: saves the model settings in %s\n", file)
	ask := func(q, def string) (string, error) {
		if def != "" {
			fmt.Fprintf(stdout, "%s [%s]: ", q, def)
		} else {
			fmt.Fprintf(stdout, "%s: ", q)
		}
		line, err := in.ReadString('\n')
		if err != nil && (!errors.Is(err, io.EOF) || line == "") {
			return "", fmt.Errorf("no answer to %q: %w", q, err)
		}
		if v := strings.TrimSpace(line); v != "" {
			return v, nil
		}
		return def, nil
	}
	var a loginAnswers
	var err error
	steps := []struct {
		q, def string
		to     *string
	}{
		{"Provider (openai: any OpenAI-compatible endpoint)", "openai", &a.provider},
		{"Base URL", "https://api.openai.com/v1", &a.baseURL},
		{"Model", "gpt-4.1", &a.model},
		{"API key (empty for a local model that needs none)", "", &a.key},
	}
	for _, s := range steps {
		if *s.to, err = ask(s.q, s.def); err != nil {
			fmt.Fprintf(stderr, "\nagentls login: %v\n", err)
			return 1
		}
	}
	if a.provider != "openai" {
		fmt.Fprintf(stderr, "agentls login: provider %q is not one agentls speaks (openai: any OpenAI-compatible endpoint)\n", a.provider)
		return 1
	}
	if !strings.HasPrefix(a.baseURL, "https://") && !strings.HasPrefix(a.baseURL, "http://") {
		fmt.Fprintf(stderr, "agentls login: base URL %q must start with https:// or http://\n", a.baseURL)
		return 1
	}
	if strings.ContainsAny(a.key, " \t\r") {
		fmt.Fprintln(stderr, "agentls login: the key has spaces in it; paste the key alone")
		return 1
	}
	if err := saveLogin(file, a); err != nil {
		fmt.Fprintf(stderr, "agentls login: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "\nSaved: %s (model %s at %s)", file, a.model, a.baseURL)
	if a.key != "" {
		fmt.Fprintf(stdout, "; the key is in %s (only you can read it)", credentialsFile(file))
	}
	fmt.Fprintln(stdout, ".")
	return 0
}

// credentialsFile is the key file beside config.yaml.
func credentialsFile(configFile string) string {
	return filepath.Join(filepath.Dir(configFile), "credentials")
}

// saveLogin writes the key file (0600, replaced atomically) and merges the
// settings into config.yaml (created 0600 when missing).
func saveLogin(file string, a loginAnswers) error {
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	var doc yaml.Node
	data, err := os.ReadFile(file)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return fmt.Errorf("read %s: %w", file, err)
	default:
		if err := yaml.Unmarshal(data, &doc); err != nil {
			return fmt.Errorf("%s is not valid YAML (fix it first; nothing was changed): %w", file, err)
		}
	}
	if doc.Kind == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode}}}
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return fmt.Errorf("%s does not hold a mapping at its top (fix it first; nothing was changed)", file)
	}
	model := mappingValue(root, "model")
	if model.Kind != yaml.MappingNode {
		return fmt.Errorf("%s: model is not a mapping (fix it first; nothing was changed)", file)
	}
	setScalar(model, "provider", a.provider)
	setScalar(model, "base_url", a.baseURL)
	setScalar(model, "name", a.model)
	if a.key != "" {
		cred := credentialsFile(file)
		if err := writePrivate(cred, []byte(a.key+"\n")); err != nil {
			return err
		}
		setScalar(model, "api_key_file", cred)
	} else {
		setScalar(model, "api_key_env", "")
		deleteKey(model, "api_key_file")
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return fmt.Errorf("encode %s: %w", file, err)
	}
	mode := os.FileMode(0o600)
	if fi, err := os.Stat(file); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := atomicfile.Write(file, buf.Bytes(), mode); err != nil {
		return fmt.Errorf("write %s: %w", file, err)
	}
	return nil
}

// mappingValue returns key's value in m, adding an empty mapping when absent.
func mappingValue(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	v := &yaml.Node{Kind: yaml.MappingNode}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, v)
	return v
}

// setScalar sets key in m to the string value.
func setScalar(m *yaml.Node, key, value string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content[i+1] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value, LineComment: m.Content[i+1].LineComment}
			return
		}
	}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value})
}

// deleteKey removes key from m.
func deleteKey(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return
		}
	}
}

// writePrivate writes a file only its owner can read (0600), atomically.
func writePrivate(path string, data []byte) error {
	if err := atomicfile.Write(path, data, 0o600); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
