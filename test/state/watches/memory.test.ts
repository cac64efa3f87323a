import { createMemoryWatchState } from '../../../src/state/watches/memory.js';
import { watchStateContract } from '../../helpers/watch-state-contract.js';

// No reopen: the memory state ends with its process, so the suite marks its restart cases skipped.
watchStateContract('memory', {
  open: async (options) => createMemoryWatchState(options),
});
