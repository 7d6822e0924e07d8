package tools

import (
	"slices"
	"testing"

	"github.com/agentls/agentls/config"
)

func TestCommandEnv(t *testing.T) {
	t.Parallel()
	cfg := config.Default()
	cfg.Model.APIKeyEnv = "MY_MODEL_KEY"
	cfg.Run.EnvDeny = append(cfg.Run.EnvDeny, "EXACT_NAME", "bad[glob")
	environ := []string{
		"PATH=/usr/bin", "HOME=/home/u", "GOPATH=/go", "LANG=C.UTF-8",
		"MY_MODEL_KEY=sk-1", "OPENAI_API_KEY=sk-2", "ANTHROPIC_API_KEY=sk-3",
		"GITHUB_TOKEN=t", "NPM_TOKEN=t", "DB_SECRET=s", "AWS_ACCESS_KEY_ID=a", "AWS_REGION=r",
		"EXACT_NAME=x", "EXACT_NAME_2=kept", "bad[glob=y", "TOKEN=kept", "API_KEY=kept", "MY_TOKENS=kept",
		"=C:=C:\\", "NOEQUALS",
	}
	got := commandEnv(environ, cfg)
	want := []string{
		"PATH=/usr/bin", "HOME=/home/u", "GOPATH=/go", "LANG=C.UTF-8",
		"EXACT_NAME_2=kept", "TOKEN=kept", "API_KEY=kept", "MY_TOKENS=kept",
		"=C:=C:\\", "NOEQUALS",
	}
	if !slices.Equal(got, want) {
		t.Errorf("commandEnv =\n%q\nwant\n%q", got, want)
	}
	// The model's key variable is scrubbed even with an empty env_deny.
	cfg.Run.EnvDeny = nil
	if got := commandEnv([]string{"MY_MODEL_KEY=sk", "GITHUB_TOKEN=t"}, cfg); !slices.Equal(got, []string{"GITHUB_TOKEN=t"}) {
		t.Errorf("with env_deny empty: %q", got)
	}
	if d := config.Default().Run.EnvDeny; !slices.Equal(d, []string{"*_API_KEY", "*_TOKEN", "*_SECRET", "AWS_*"}) {
		t.Errorf("default run.env_deny = %q", d)
	}
}
