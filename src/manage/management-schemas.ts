// Named builders rather than the `Type` namespace, which would pull every TypeBox builder into a bundle.
import {
  Array as TypeArray,
  Integer,
  Literal,
  Null,
  Object as TypeObject,
  Optional,
  String as TypeString,
  Union,
  type TObject,
  type TProperties,
  type TSchema,
} from '@sinclair/typebox';
import { MAX_AVATAR_URL_LENGTH, MAX_DESCRIPTION_CODE_POINTS } from '../lifecycle/webhook-profile.js';
import { MAX_NAME_CODE_POINTS } from '../lifecycle/webhook-name.js';
import { POST_HISTORY_LIMIT } from '../limits.js';
import { MAX_RECORDED_ERRORS } from '../history/post-record.js';

// The bodies the management API takes and gives. The request bodies are compiled by the API, which
// checks their shape with them (types and unknown properties); the rules of each field (lengths
// after trimming, the avatar URL's) are the manager's, stated here in `description` only. The
// OpenAPI document publishes all of them as they are.

const strict = <T extends TProperties>(properties: T, description?: string): TObject<T> =>
  TypeObject(properties, { additionalProperties: false, ...(description === undefined ? {} : { description }) });
const orNull = <T extends TSchema>(schema: T, description: string) => Union([schema, Null()], { description });

const description = orNull(
  TypeString(),
  `What the webhook is for: plain text, trimmed, 1 to ${MAX_DESCRIPTION_CODE_POINTS} code points (tab and line feed allowed, no other control or bidirectional formatting character). \`null\` or a blank string clears it.`,
);
const avatarUrl = orNull(
  TypeString(),
  `The image an app shows beside the webhook's messages: an absolute https URL without user name or password, at most ${MAX_AVATAR_URL_LENGTH.toLocaleString('en-US')} characters, with no space or control character. \`null\` or \`""\` clears it.`,
);

/** `POST /channels/{channelId}/webhooks`. */
export const createWebhookBody = strict(
  {
    name: TypeString({
      description: `The webhook's name, the author name of its messages: 1 to ${MAX_NAME_CODE_POINTS} code points after trimming, at least one visible. It never changes.`,
    }),
    description: Optional(description),
    avatarUrl: Optional(avatarUrl),
  },
  'A new webhook: its name and, optionally, its profile.',
);

/** `PATCH /webhooks/{webhookId}`. */
export const updateWebhookBody = strict(
  { description: Optional(description), avatarUrl: Optional(avatarUrl) },
  'A change to the profile: a field left out stays as it is. The name and the channel never change.',
);

/** `POST /webhooks/{webhookId}/rotate` and `/revoke`: no body, or an empty object. */
export const emptyBody = strict({}, 'Nothing: no body, or `{}`.');

const epochMs = (what: string) => Integer({ description: `${what}, epoch ms.` });
const epochMsOrNull = (what: string) => orNull(Integer(), `${what}, epoch ms, or \`null\`.`);

/** A webhook as every answer shows it: never its secret, its hash or its URL. */
export const webhookSchema = strict({
  id: TypeString({ description: 'The webhook id, `wh_` and 22 base64url characters.' }),
  channelId: TypeString(),
  name: TypeString(),
  createdBy: TypeString({ description: 'The user who created it.' }),
  createdAt: epochMs('Creation time'),
  rotatedAt: epochMsOrNull('The last rotation'),
  revokedAt: epochMsOrNull('Revocation'),
  lastPostAt: epochMsOrNull('The last message it stored'),
  status: Union([Literal('active'), Literal('revoked')]),
  description: orNull(TypeString(), 'What the webhook is for.'),
  avatarUrl: orNull(TypeString(), 'An https URL of its image.'),
});

const fieldError = strict({
  pointer: Optional(TypeString({ description: 'A JSON Pointer into the request body.' })),
  header: Optional(TypeString({ description: 'The offending header, lower-case.' })),
  message: TypeString(),
  hint: Optional(
    TypeString({ description: 'What to send instead of a Slack construct the endpoint does not take, with a link.' }),
  ),
});

/** One entry of a webhook's history. */
export const postRecordSchema = strict(
  {
    webhookId: TypeString(),
    at: epochMs('When the post was answered (for a 429 or 415 record, the first of its minute)'),
    status: Integer({ description: 'The answer to the post: 201, 200, 400, 404, 409, 413, 415, 429 or 500.' }),
    code: orNull(TypeString(), 'The problem code of the answer, `null` for 200 and 201.'),
    errors: TypeArray(fieldError, {
      maxItems: MAX_RECORDED_ERRORS,
      description: `For a 400, its first ${MAX_RECORDED_ERRORS} error entries, with their hints; otherwise empty.`,
    }),
    idempotencyKey: orNull(TypeString(), "The post's idempotency key, when it had one and got that far."),
    messageId: orNull(TypeString(), "The stored message's id, for 200 and 201."),
    bodyBytes: orNull(Integer({ minimum: 0 }), "The body's size in bytes, when it was read."),
    count: Integer({ minimum: 1, description: "How many posts it stands for: 1, or a minute's 429s (or 415s)." }),
  },
  'What happened to one post that proved the secret of the webhook, or to all its posts answered 429 (or 415) in one minute.',
);

/** The answer of the list route. */
export const webhookListSchema = strict({
  webhooks: TypeArray(webhookSchema, { description: 'Oldest first, revoked ones included.' }),
});

/** The answer of create and rotate: the only answers that hold the URL. */
export const webhookWithUrlSchema = strict({
  webhook: webhookSchema,
  url: TypeString({
    format: 'uri',
    description:
      'The complete secret URL, `{baseUrl}/hooks/channels/{webhookId}/{secret}`: shown once, here. Give it only to the sending system.',
  }),
});

/** The answer of get, update and revoke. */
export const webhookAnswerSchema = strict({ webhook: webhookSchema });

/** `POST /webhooks/{webhookId}/test`. */
export const testMessageBody = strict(
  {
    url: TypeString({
      minLength: 1,
      maxLength: 2048,
      description: "The webhook's secret URL as the page holds it, from create or rotate.",
    }),
    text: TypeString({ minLength: 1, maxLength: 1000, description: 'The text of the test message.' }),
  },
  'A test message, posted through the endpoint with this URL.',
);

/** The answer of the test route: what the endpoint answered the post, as a sender would see it. */
export const testMessageAnswerSchema = strict({
  status: Integer({
    description: "The endpoint's status: 201 for a stored message, 404 for a URL that is no longer the webhook's.",
  }),
  body: TypeObject({}, { description: "The endpoint's JSON body: the message, or its problem with a stable `code`." }),
});

/** The answer of the history route. */
export const postListSchema = strict({
  posts: TypeArray(postRecordSchema, { maxItems: POST_HISTORY_LIMIT, description: 'Newest first.' }),
});
