package acp

import (
	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
	sdk "github.com/coder/acp-go-sdk"
)

// The ids of agentls's session configuration options.
const (
	optMode      = "mode"
	optModel     = "model"
	optPlanModel = "plan_model"
	optReview    = "review"
)

// The modes as ACP shows them.
var modes = []sdk.SessionMode{
	{Id: sdk.SessionModeId(agentproto.ModePlan), Name: "Plan",
		Description: sdk.Ptr("Explore, ask and write a .plan; nothing but .plan files can change. The plan's approval switches to Build.")},
	{Id: sdk.SessionModeId(agentproto.ModeBuild), Name: "Build",
		Description: sdk.Ptr("Carry out the approved plan: edit files and run commands (each command asked unless allowed).")},
}

// modeState is the session's mode as ACP's `modes`.
func modeState(current agentproto.Mode) *sdk.SessionModeState {
	return &sdk.SessionModeState{CurrentModeId: sdk.SessionModeId(current), AvailableModes: modes}
}

// reviewOpts are the choices of the review option (docs/review.md).
var reviewOpts = sdk.SessionConfigSelectOptionsUngrouped{
	{Value: agent.ReviewOff, Name: "Off", Description: sdk.Ptr("BUILD edits apply at once; each one's diff is shown in its tool call.")},
	{Value: agent.ReviewEdits, Name: "Review edits", Description: sdk.Ptr("Each BUILD edit is for your review: its diff is shown in its tool call, and you keep or reject it in your client.")},
}

// configOptions are the session's configuration options: the mode (the
// same choice as `modes`), the model, the plan model and the review mode.
func (h *hosted) configOptions(sessionID string, current agentproto.Mode) []sdk.SessionConfigOption {
	modeOpts := make(sdk.SessionConfigSelectOptionsUngrouped, 0, len(modes))
	for _, m := range modes {
		modeOpts = append(modeOpts, sdk.SessionConfigSelectOption{Value: sdk.SessionConfigValueId(m.Id), Name: m.Name, Description: m.Description})
	}
	cfg := h.Config()
	names := h.models
	buildCurrent, planCurrent := cfg.Model.Name, cfg.Model.PlanName
	if planCurrent == "" {
		planCurrent = cfg.Model.Name
	}
	if cur, err := h.mgr.SessionModels(sessionID); err == nil {
		buildCurrent, planCurrent = cur.Build, cur.Plan // the session's own choice (agent/setModel)
		names = modelNames(append(append([]string(nil), names...), cur.Build, cur.Plan)...)
	}
	return []sdk.SessionConfigOption{
		selectOption(optMode, "Mode", "Plan: only .plan files change. Build: the approved plan is carried out.",
			sdk.SessionConfigOptionCategoryMode, string(current), modeOpts),
		selectOption(optModel, "Model", "The model of build mode (and of plan mode when no plan model is set), for this session.",
			sdk.SessionConfigOptionCategoryModel, buildCurrent, modelOptions(names)),
		selectOption(optPlanModel, "Plan model", "The model of plan mode, for this session.",
			sdk.SessionConfigOptionCategoryModel, planCurrent, modelOptions(names)),
		selectOption(optReview, "Review", "Whether BUILD edits are for your review, for this session.",
			sdk.SessionConfigOptionCategory("_review"), h.reviewOf(sessionID), reviewOpts),
	}
}

// reviewOf is the session's review mode ("off" when it is unknown here).
func (h *hosted) reviewOf(sessionID string) string {
	if info, err := h.mgr.SessionInfo(sessionID); err == nil && info.Review != "" {
		return info.Review
	}
	return agent.ReviewOff
}

func selectOption(id, name, desc string, cat sdk.SessionConfigOptionCategory, current string, opts sdk.SessionConfigSelectOptionsUngrouped) sdk.SessionConfigOption {
	return sdk.SessionConfigOption{Select: &sdk.SessionConfigOptionSelect{
		Id: sdk.SessionConfigId(id), Name: name, Description: sdk.Ptr(desc), Category: sdk.Ptr(cat),
		CurrentValue: sdk.SessionConfigValueId(current), Type: "select",
		Options: sdk.SessionConfigSelectOptions{Ungrouped: &opts},
	}}
}

func modelOptions(names []string) sdk.SessionConfigSelectOptionsUngrouped {
	out := make(sdk.SessionConfigSelectOptionsUngrouped, 0, len(names))
	for _, n := range names {
		out = append(out, sdk.SessionConfigSelectOption{Value: sdk.SessionConfigValueId(n), Name: n})
	}
	return out
}
