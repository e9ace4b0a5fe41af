// Generated path suites of the 'sign-in-and-handoff' group (tests/model/harness/path-groups.ts).
import { runPathGroup } from '../harness/run-path-group';

runPathGroup('sign-in-and-handoff');
