/**
 * ShowDoc's `subscription` (reference pages §1.6, §6): a user following an object's changes. Only
 * (page, 'update') is used: "save and notify" reminds a page's subscribers. `sub_time` is a
 * datetime string, as ShowDoc stores it. The unique index makes subscribing idempotent even when
 * two requests race (ShowDoc checked before inserting).
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export const PAGE_OBJECT = 'page';
export const UPDATE_ACTION = 'update';

export interface SubscriptionDoc {
  id: number;
  uid: number;
  object_id: number;
  object_type: string;
  action_type: string;
  sub_time: string;
}

const subscriptionSchema = new Schema<SubscriptionDoc>(
  {
    id: { type: Number, required: true },
    uid: { type: Number, required: true },
    object_id: { type: Number, required: true },
    object_type: { type: String, required: true },
    action_type: { type: String, required: true },
    sub_time: { type: String, default: '' },
  },
  { collection: 'subscription', versionKey: false },
);

subscriptionSchema.index({ id: 1 }, { unique: true });
// An object's subscribers (getPageList, notify), and one row per subscriber.
subscriptionSchema.index(
  { object_id: 1, object_type: 1, action_type: 1, uid: 1 },
  { unique: true },
);

export const Subscription = defineModel<SubscriptionDoc>('Subscription', subscriptionSchema);
