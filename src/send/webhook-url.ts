import { type ArgumentRule, HTTP_URL } from '../arguments/argument-rules.js';

/**
 * A webhook URL as a sender is given it: an absolute http(s) URL without user info. A webhook's
 * credential is its path; a `user:password@` before the host is never part of one, and every error
 * quoting the URL would quote the password too. Like `HTTP_URL`, the message never echoes the URL.
 */
export const WEBHOOK_URL: ArgumentRule = {
  expected: HTTP_URL.expected,
  problem(value) {
    const problem = HTTP_URL.problem(value);
    if (problem !== undefined) return problem;
    const { username, password } = new URL(value as string);
    return username === '' && password === ''
      ? undefined
      : 'it has a user name or password before the host (user:password@), which a webhook URL never has';
  },
};
