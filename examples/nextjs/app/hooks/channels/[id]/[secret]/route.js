// app/hooks/channels/[id]/[secret]/route.js: the incoming-webhook URL of a Next.js App Router app.
// The Fetch adapter takes the route's Request as is; Next must not read or cache it.
import { webhooks } from '../../../../../lib/webhooks.js';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const handle = (request) => webhooks.fetchHandler(request);

// Every method goes to the handler, so that anything but POST gets the contract's 405.
export { handle as POST, handle as GET, handle as PUT, handle as PATCH, handle as DELETE };
