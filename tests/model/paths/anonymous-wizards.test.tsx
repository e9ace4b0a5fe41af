// Generated path suites of the 'anonymous-wizards' group (tests/model/harness/path-groups.ts).
import { runPathGroup } from '../harness/run-path-group';

runPathGroup('anonymous-wizards');
