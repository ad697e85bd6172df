/**
 * The consumer group membership suite against the real brokers. Its parts live in *.suite.ts and are registered
 * here under one concurrent suite: they mostly wait (for heartbeats, session timeouts, the KIP-848 coordinator's
 * 5 s heartbeat interval), so running them side by side keeps the whole suite to about two minutes instead of
 * the sum of its waits. Every test uses its own topics and groups.
 */
import { describe } from 'vitest';
import { livenessSuite } from './liveness.suite.js';
import { mixedGroupSuite } from './mixed-group.suite.js';
import { recoverySuite } from './recovery.suite.js';
import { scaleSuite } from './scale.suite.js';

describe.concurrent('consumer group membership', () => {
  mixedGroupSuite();
  scaleSuite();
  livenessSuite();
  recoverySuite();
});
