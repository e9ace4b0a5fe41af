// Generated path suites of the 'forced-steps' group (tests/model/harness/path-groups.ts).
import { runPathGroup } from '../harness/run-path-group';

runPathGroup('forced-steps');
