// Browser and operating system of a User-Agent header, for the trusted-device record, parsed by
// ua-parser-js 1.x (MIT; the 2.x line changed licence to AGPL, so it stays on 1.x).
import UAParser from 'ua-parser-js';

export interface DeviceDescription {
  browserFamily: string | null;
  browserMajor: string | null;
  browserMinor: string | null;
  osFamily: string | null;
  osVersion: string | null;
}

const MAX_USER_AGENT = 512;

export function describeUserAgent(userAgent: string | undefined): DeviceDescription {
  const result = new UAParser(userAgent?.slice(0, MAX_USER_AGENT) ?? '').getResult();
  const [major, minor] = (result.browser.version ?? '').split('.');
  return {
    browserFamily: result.browser.name ?? null,
    browserMajor: result.browser.major ?? (major || null),
    browserMinor: minor || null,
    osFamily: result.os.name ?? null,
    osVersion: result.os.version ?? null,
  };
}
