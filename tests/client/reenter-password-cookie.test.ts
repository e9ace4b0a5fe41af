// The recent-authentication cookie the watcher reads (helper of its provided actor).
import { describe, expect, it } from 'vitest';
import { hasCookie } from '../../src/client/app/reenter-password/reenter-password.actors';
import { REENTER_PASSWORD_COOKIE } from '../../src/contract/session';

describe('the re-enter-password cookie', () => {
  it('is found by its exact name with a value, wherever it sits in document.cookie', () => {
    expect(REENTER_PASSWORD_COOKIE).toBe('sam_reauth');
    expect(hasCookie('sam_reauth=1767225600')).toBe(true);
    expect(hasCookie('theme=dark; sam_reauth=1767225600; lang=en')).toBe(true);
    expect(hasCookie('')).toBe(false);
    expect(hasCookie('theme=dark')).toBe(false);
    expect(hasCookie('sam_reauth=')).toBe(false);
    expect(hasCookie('xsam_reauth=1; sam_reauth_old=1')).toBe(false);
  });
});
