// Fuzzing (issue 11, security point 2) of the calls that a signed-in user (C10001) or an
// administrator (admin1) reaches; see support/fuzz.ts for the properties. The other calls are in
// fuzz-public.test.ts, so that vitest's two workers share the suite.
import { callerKindOf, fuzzSuite } from './support/fuzz';

fuzzSuite('the signed-in and admin calls', (call) => ['customer', 'admin'].includes(callerKindOf(call)));
