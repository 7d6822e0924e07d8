package release

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// hostTarget is this machine's registry platform name.
func hostTarget(t *testing.T) string {
	arch := map[string]string{"amd64": "x86_64", "arm64": "aarch64"}[runtime.GOARCH]
	if arch == "" {
		t.Skipf("no release target for %s", runtime.GOARCH)
	}
	return runtime.GOOS + "-" + arch
}

// validate checks data against the vendored registry schema.
func validate(t *testing.T, data []byte) error {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat = true
	schema, err := os.ReadFile("agent.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource("agent.schema.json", strings.NewReader(string(schema))); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("agent.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	return s.Validate(v)
}

// TestReleaseScriptForTheHost runs scripts/release for this machine's
// platform: the archive holds a working agentls, SHA256SUMS matches it,
// agent.json passes the ACP Registry's schema and names ./agentls acp with
// the archive's sha256, icon.svg is 16×16 in currentColor.
func TestReleaseScriptForTheHost(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a release")
	}
	if runtime.GOOS == "windows" {
		t.Skip("scripts/release is bash")
	}
	target := hostTarget(t)
	dist := t.TempDir()
	cmd := exec.Command("bash", "../scripts/release", target)
	cmd.Env = append(os.Environ(), "DIST_DIR="+dist, "VERSION=1.2.3", "BASE_URL=https://example.com/dl")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("scripts/release: %v\n%s", err, out)
	}
	archive := "agentls-1.2.3-" + target + ".tar.gz"
	data, err := os.ReadFile(filepath.Join(dist, archive))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	hexSum := hex.EncodeToString(sum[:])
	sums, _ := os.ReadFile(filepath.Join(dist, "SHA256SUMS"))
	if string(sums) != hexSum+"  "+archive+"\n" {
		t.Errorf("SHA256SUMS %q, want %s  %s", sums, hexSum, archive)
	}

	// The archive's agentls runs and knows its version.
	bin := extract(t, data, "agentls", t.TempDir())
	out, err := exec.Command(bin, "version").Output()
	if err != nil || !strings.Contains(string(out), "agentls 1.2.3") {
		t.Errorf("agentls version from the archive: %q %v", out, err)
	}

	agentJSON, err := os.ReadFile(filepath.Join(dist, "agent.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := validate(t, agentJSON); err != nil {
		t.Fatalf("agent.json does not pass the registry schema: %v\n%s", err, agentJSON)
	}
	var entry struct {
		ID           string
		Version      string
		Distribution struct {
			Binary map[string]struct {
				Archive, Sha256, Cmd string
				Args                 []string
			}
		}
	}
	if err := json.Unmarshal(agentJSON, &entry); err != nil {
		t.Fatal(err)
	}
	b := entry.Distribution.Binary[target]
	if entry.ID != "agentls" || entry.Version != "1.2.3" || b.Cmd != "./agentls" || strings.Join(b.Args, " ") != "acp" ||
		b.Sha256 != hexSum || b.Archive != "https://example.com/dl/"+archive || len(entry.Distribution.Binary) != 1 {
		t.Errorf("agent.json: %s", agentJSON)
	}
	icon, _ := os.ReadFile(filepath.Join(dist, "icon.svg"))
	for _, want := range []string{`width="16"`, `height="16"`, `viewBox="0 0 16 16"`, "currentColor"} {
		if !strings.Contains(string(icon), want) {
			t.Errorf("icon.svg lacks %s", want)
		}
	}
}

// TestSchemaRejectsBadEntries: the vendored schema is live (a test that
// validated anything would prove nothing).
func TestSchemaRejectsBadEntries(t *testing.T) {
	good := `{"id":"agentls","name":"agentls","version":"1.2.3","description":"d","distribution":{"binary":{"linux-x86_64":{"archive":"https://x/a.tar.gz","cmd":"./agentls","args":["acp"]}}}}`
	if err := validate(t, []byte(good)); err != nil {
		t.Fatalf("a good entry: %v", err)
	}
	for _, bad := range []string{
		strings.Replace(good, `"linux-x86_64"`, `"linux-amd64"`, 1),
		strings.Replace(good, `"id":"agentls"`, `"id":"AgentLS"`, 1),
		strings.Replace(good, `"version":"1.2.3"`, `"version":"v1"`, 1),
		strings.Replace(good, `"cmd":"./agentls",`, ``, 1),
		strings.Replace(good, `"args":["acp"]`, `"args":["acp"],"sha256":"xyz"`, 1),
	} {
		if err := validate(t, []byte(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

// TestReleaseScriptSyntax checks every target's path through the script
// parses (bash -n); building all six is left to the release itself.
func TestReleaseScriptSyntax(t *testing.T) {
	if out, err := exec.Command("bash", "-n", "../scripts/release").CombinedOutput(); err != nil {
		t.Fatalf("bash -n: %v\n%s", err, out)
	}
	cmd := exec.Command("bash", "../scripts/release", "plan9-mips")
	cmd.Env = append(os.Environ(), "DIST_DIR="+t.TempDir())
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "unknown target") {
		t.Errorf("an unknown target: %v\n%s", err, out)
	}
}

// extract writes the archive's file name to dir and returns its path.
func extract(t *testing.T, tgz []byte, name, dir string) string {
	t.Helper()
	zr, err := gzip.NewReader(strings.NewReader(string(tgz)))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			t.Fatalf("%s is not in the archive", name)
		}
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Clean(h.Name) != name {
			continue
		}
		p := filepath.Join(dir, name)
		f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY, 0o755)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(f, tr); err != nil {
			t.Fatal(err)
		}
		f.Close()
		return p
	}
}
