-- A stand-in for avante.nvim's Rust template module (not built here): an ACP provider sends the
-- user's prompt to the agent as it is, so nothing needs rendering.
return {
  initialize = function() end,
  render = function()
    return ""
  end,
}
