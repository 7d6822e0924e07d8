package lspclient

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	"github.com/agentls/agentls/internal/lspwire"
	"github.com/agentls/agentls/workspace"
)

// ApplyToDisk is the default applyEdit handler, for a handler that
// changes the edit first (e.g. leaves out declined changes).
func (e *Client) ApplyToDisk(raw json.RawMessage) (bool, string) { return e.applyToDisk(raw) }

// applyToDisk applies a WorkspaceEdit to the files, as an editor that applies
// and saves would. Failures are reported as the editor would: applied false.
func (e *Client) applyToDisk(raw json.RawMessage) (bool, string) {
	if err := applyEdit(raw, e.editBuffer); err != nil {
		return false, err.Error()
	}
	return true, ""
}

// applyEdit applies a WorkspaceEdit; text edits go to an open buffer when
// buffer takes them (ok true), else to the file on disk.
func applyEdit(raw json.RawMessage, buffer func(path string, edits []workspace.TextEdit) (bool, error)) error {
	var edit lspwire.WorkspaceEdit
	if err := json.Unmarshal(raw, &edit); err != nil {
		return fmt.Errorf("bad edit: %w", err)
	}
	for u, edits := range edit.Changes {
		if err := editFile(u, edits, buffer); err != nil {
			return err
		}
	}
	for _, dc := range edit.DocumentChanges {
		var err error
		switch {
		case dc.TextDocument != nil:
			err = editFile(dc.TextDocument.URI, dc.Edits, buffer)
		case dc.Kind == "create":
			var path string
			if path, err = filePath(dc.URI); err == nil {
				if _, statErr := os.Stat(path); statErr == nil && !dc.Options["overwrite"] {
					if !dc.Options["ignoreIfExists"] {
						err = fmt.Errorf("%s already exists", path)
					}
					break
				}
				if err = os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
					err = os.WriteFile(path, nil, 0o644)
				}
			}
		case dc.Kind == "rename":
			var from, to string
			if from, err = filePath(dc.OldURI); err == nil {
				if to, err = filePath(dc.NewURI); err == nil {
					if err = os.MkdirAll(filepath.Dir(to), 0o755); err == nil {
						err = os.Rename(from, to)
					}
				}
			}
		case dc.Kind == "delete":
			var path string
			if path, err = filePath(dc.URI); err == nil {
				if dc.Options["recursive"] {
					err = os.RemoveAll(path)
				} else {
					err = os.Remove(path)
				}
			}
		default:
			err = fmt.Errorf("unknown document change %q", dc.Kind)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func editFile(u string, edits []workspace.TextEdit, buffer func(string, []workspace.TextEdit) (bool, error)) error {
	path, err := filePath(u)
	if err != nil {
		return err
	}
	if open, err := buffer(path, edits); open {
		return err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("edit %s: %w", path, err)
	}
	// As VS Code: the file is opened (decoded), edited and saved.
	m := openFile(data)
	if err := m.apply(edits); err != nil {
		return fmt.Errorf("edit %s: %w", path, err)
	}
	return os.WriteFile(path, m.save(), 0o644)
}

func filePath(u string) (string, error) {
	parsed, err := url.Parse(u)
	if err != nil || parsed.Scheme != "file" {
		return "", fmt.Errorf("not a file URI: %q", u)
	}
	return filepath.FromSlash(parsed.Path), nil
}
