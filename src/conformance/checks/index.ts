/** Every check of the suite, in report order: breadth per area first, offset APIs in the most depth. */
import type { Check } from '../types.js';
import { errorChecks } from './errors.js';
import { fetchChecks } from './fetch.js';
import { groupChecks } from './groups.js';
import { listOffsetsChecks } from './list-offsets.js';
import { moreListOffsetsChecks } from './list-offsets-more.js';
import { offsetCommitChecks } from './offset-commit.js';
import { offsetFetchChecks } from './offset-fetch.js';
import { produceChecks } from './produce.js';
import { versionChecks } from './versions.js';

export const ALL_CHECKS: readonly Check[] = [
  ...versionChecks,
  ...listOffsetsChecks,
  ...moreListOffsetsChecks,
  ...offsetCommitChecks,
  ...offsetFetchChecks,
  ...groupChecks,
  ...fetchChecks,
  ...produceChecks,
  ...errorChecks,
];
