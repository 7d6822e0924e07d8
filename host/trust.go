package host

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/workspace"
)

// The workspace's .agentls.yaml applies only its narrowing keys until the
// user trusted its current content (docs/guard.md, "Workspace configuration
// trust"; the rules are config/trust.go's). The host judges the file at
// each load; the face asks the user and calls Trust.

// TrustFile is the configuration file of root subject to trust: the
// workspace's .agentls.yaml ("" with ConfigFile, a file the user named, or
// without a root).
func (o Options) TrustFile(root string) string {
	if o.ConfigFile != "" || root == "" {
		return ""
	}
	return filepath.Join(root, ".agentls.yaml")
}

// TrustFile is this host's configuration file subject to trust ("" when
// there is none).
func (h *Host) TrustFile() string { return h.opts.TrustFile(h.ws.Root()) }

// IsTrustFile reports whether path is the workspace's .agentls.yaml.
func (h *Host) IsTrustFile(path string) bool {
	f := h.TrustFile()
	return f != "" && SameFile(path, f)
}

// judgeWorkspaceFile reads the workspace's .agentls.yaml against the layers
// below it (lower) and the trust store: the layer that applies now, and
// the keys that wait for trust.
func (h *Host) judgeWorkspaceFile(path string, lower []config.Source) (config.WorkspaceTrust, []config.Diagnostic) {
	data, err := config.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return config.WorkspaceTrust{Path: path, Layer: config.Source{Name: path}}, nil
	}
	if err != nil {
		slog.Warn("config file", "file", path, "err", err)
		return config.WorkspaceTrust{Path: path, Layer: config.Source{Name: path}}, []config.Diagnostic{unreadable(path, err)}
	}
	layer, diags := config.ParseLayer(path, data)
	base, err := config.Resolve(lower...)
	if err != nil {
		base = config.Default()
	}
	content, kinds := kindsCovered(data, h.ws.Root())
	if why := h.untrustable(path); why != "" {
		return config.JudgeUntrustable(path, content, layer, base, kinds, why), diags
	}
	return h.trust.Judge(path, content, layer, base, kinds), diags
}

// untrustable says why the workspace file can never be trusted ("" when
// it can): it is a symlink whose target lies outside the workspace folders
// (another project's file, a file anyone could swap), so a trust given to
// it would follow whatever it points to.
func (h *Host) untrustable(path string) string {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return ""
	}
	real, err := workspace.Canonical(path)
	if err != nil {
		return fmt.Sprintf("it is a symlink that cannot be followed (%v), and agentls never trusts it", err)
	}
	for _, f := range h.ws.Folders() {
		for _, root := range withReal(f) {
			if strictlyInside(real, root) {
				return ""
			}
		}
	}
	return fmt.Sprintf("it is a symlink to %s, outside the workspace, and agentls never trusts a workspace configuration that lives elsewhere "+
		"(copy the file into the workspace, or move these settings to your own config.yaml)", real)
}

// ErrUntrustable is Trust's error for a file the user cannot trust.
var ErrUntrustable = errors.New("this workspace configuration file cannot be trusted")

// Trust remembers that the user trusted the workspace file's content as w
// read it; the next Reload applies all of its keys. An error means the
// trust was not stored: it holds for this process only.
func (h *Host) Trust(w config.WorkspaceTrust) error {
	if w.Untrustable != "" {
		return fmt.Errorf("%w: %s", ErrUntrustable, w.Untrustable)
	}
	return h.trust.Trust(w.Path, w.Content, time.Now())
}

// SameFile reports whether a and b name the same file (through symlinks
// too, when both exist).
func SameFile(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(ia, ib)
}
