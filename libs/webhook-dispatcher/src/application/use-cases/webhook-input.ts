import { invalidRequest } from '@igw/kernel';

/** 400 `invalid_request` naming the one field that is wrong (what the webhook use cases reject). */
export const badField = (path: string, message: string) => invalidRequest(message, [{ path, message }]);
