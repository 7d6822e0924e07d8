package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// buildAt builds ./cmd/agentls at commit rev in a temporary git worktree
// under tmp, removes the worktree, and returns the binary's path.
func buildAt(tmp, rev string) (string, error) {
	wt := filepath.Join(tmp, "base-worktree")
	if err := command("", "git", "worktree", "add", "--detach", wt, rev); err != nil {
		return "", fmt.Errorf("git worktree add %s (run from the repository): %w", rev, err)
	}
	defer command("", "git", "worktree", "remove", "--force", wt)
	bin := filepath.Join(tmp, "agentls-"+rev)
	if err := command(wt, "go", "build", "-o", bin, "./cmd/agentls"); err != nil {
		return "", fmt.Errorf("build %s: %w", rev, err)
	}
	return bin, nil
}

// buildHere builds ./cmd/agentls from the current tree.
func buildHere(tmp string) (string, error) {
	bin := filepath.Join(tmp, "agentls-new")
	if err := command("", "go", "build", "-o", bin, "./cmd/agentls"); err != nil {
		return "", fmt.Errorf("build this tree (run from the repository root): %w", err)
	}
	return bin, nil
}

func command(dir, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	return cmd.Run()
}
