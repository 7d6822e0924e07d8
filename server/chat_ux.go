package server

import (
	"context"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/protoconv"
)

// setTitle is agent/setTitle: the session's new title.
func (s *Server) setTitle(ctx context.Context, p agentproto.SetTitleParams) (agentproto.Session, error) {
	info, err := s.manager().SetTitle(ctx, p.SessionID, p.Title)
	if err != nil {
		return agentproto.Session{}, rpcError(err)
	}
	return protoconv.Session(info), nil
}

// listModels is agent/listModels.
func (s *Server) listModels(ctx context.Context, p agentproto.ListModelsParams) (agentproto.ModelList, error) {
	list, err := s.manager().ListModels(ctx, p.SessionID)
	if err != nil {
		return agentproto.ModelList{}, rpcError(err)
	}
	return protoconv.ModelList(list), nil
}

// setModel is agent/setModel: the session's model for a mode.
func (s *Server) setModel(ctx context.Context, p agentproto.SetModelParams) (agentproto.ModelList, error) {
	list, err := s.manager().SetModel(ctx, p.SessionID, string(p.Mode), p.Model)
	if err != nil {
		return agentproto.ModelList{}, rpcError(err)
	}
	return protoconv.ModelList(list), nil
}
