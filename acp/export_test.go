package acp

// OutQueueLen is outQueueLen, for the stalled-client test.
const OutQueueLen = outQueueLen
