package host

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/agentls/agentls/agent/agentkinds"
	"github.com/agentls/agentls/config"
)

// userAgentsDir is the user's sub-agent kinds folder, beside their config
// file ($XDG_CONFIG_HOME/agentls/agents); "" when no home is known.
func userAgentsDir(getenv func(string) string) string {
	f := config.UserFile(getenv)
	if f == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(f), "agents")
}

// projectAgentsTrusted reports whether the workspace's own sub-agent kinds
// (.agentls/agents/*.md, repository content) may be used: only once the
// user trusted the workspace, i.e. the current content of its
// .agentls.yaml with the kinds as they are now (config.WithKinds; a kind
// added or changed since asks again) (docs/subagents.md). Without that
// file, or with a configuration file the user named instead, they are not
// used.
func (h *Host) projectAgentsTrusted() bool {
	f := h.TrustFile()
	if f == "" {
		return false
	}
	data, err := config.ReadFile(f)
	if err != nil {
		return false
	}
	content, kinds := kindsCovered(data, h.ws.Root())
	return h.trust.Trusted(f, config.WithKinds(content, kinds))
}

// kindsCovered is what a trust of the workspace file data covers besides
// its content: the project's sub-agent kinds as the question lists them
// (kinds), and, appended to data (content), a digest of each kind's
// description and instructions, which the question does not show in full
// but which go into the prompts: a kind whose text changed asks again.
// Without kinds content is data, so a trust given before kinds existed
// still holds.
func kindsCovered(data []byte, root string) (content []byte, kinds []string) {
	kinds, texts := projectKinds(root)
	if len(kinds) == 0 {
		return data, nil
	}
	return config.WithSection(data, "the project's sub-agent kinds' texts", texts), kinds
}

// projectKinds are the workspace's own sub-agent kinds (.agentls/agents),
// which trusting its .agentls.yaml lets the agent use, for the trust
// question: one line each, by name, with what it may do (its base and
// tools) and where it is; every value the repository wrote is JSON, so
// quotes and line breaks in it cannot pass for the question's own text.
// texts are the digests of each kind's description, instructions and
// turn budget, by name.
func projectKinds(root string) (out, texts []string) {
	if root == "" {
		return nil, nil
	}
	kinds := agentkinds.Read([]agentkinds.Folder{{Dir: filepath.Join(root, ".agentls", "agents"), Source: "project", Within: root}})
	for _, k := range kinds {
		if k.Source != "project" {
			continue
		}
		tools := "all of its base's"
		if k.Tools != nil {
			tools = quoted(k.Tools)
		}
		line := fmt.Sprintf("sub-agent kind %s: base %s, tools %s", quoted(k.Name), quoted(k.Base), tools)
		if k.Model != "" {
			line += ", model " + quoted(k.Model)
		}
		rel, err := filepath.Rel(root, k.Path)
		if err != nil {
			rel = k.Path
		}
		out = append(out, line+fmt.Sprintf(" (%s; its text goes into the sub-agent's prompt)", quoted(filepath.ToSlash(rel))))
		sum := sha256.Sum256([]byte(quoted([]any{k.Description, k.Instructions, k.MaxTurns})))
		texts = append(texts, quoted(k.Name)+" "+hex.EncodeToString(sum[:]))
	}
	slices.Sort(out)
	slices.Sort(texts)
	return out, texts
}

// quoted is v as JSON.
func quoted(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%q", fmt.Sprint(v))
	}
	return string(b)
}
