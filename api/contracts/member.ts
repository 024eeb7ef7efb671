/** `member`, `team`, `teamMember`, `teamItem`, `teamItemMember` (reference accounts §9.17, §10). */
import { z } from 'zod';
import { action, id, list, nothing, str } from './coerce';

const success = z.object({ success: z.boolean() });

export const ItemMember = z.object({
  item_member_id: z.string(),
  username: z.string(),
  name: z.string().nullable(),
  member_group_id: z.string(),
  cat_id: z.string(),
  cat_name: z.string().optional(),
  addtime: z.string(),
});

export const Team = z.object({
  id: z.string(),
  team_name: z.string(),
  memberCount: z.number(),
  itemCount: z.number(),
  team_manage: z.number(),
  addtime: z.string(),
  username: z.string().optional(),
});

export const TeamMember = z.object({
  id: z.string(),
  team_id: z.string(),
  member_username: z.string(),
  team_member_group_id: z.string(),
  name: z.string().nullable(),
  addtime: z.string(),
});

export const TeamItem = z.object({
  id: z.string(),
  team_id: z.string(),
  item_id: z.string(),
  item_name: z.string().optional(),
  team_name: z.string().optional(),
  addtime: z.string(),
});

export const TeamItemMember = z.object({
  id: z.string(),
  member_username: z.string(),
  member_group_id: z.string(),
  cat_id: z.string(),
  cat_ids: z.array(z.number()).optional(),
  cat_name: z.string().optional(),
  name: z.string().nullable().optional(),
  item_id: z.string(),
  addtime: z.string(),
});

export const memberContract = {
  getList: action({ item_id: id() }, z.array(ItemMember)),
  save: action(
    { item_id: id(), username: str(), member_group_id: id(), cat_id: id(), cat_ids: list() },
    /** The id of the last member row written. */
    z.object({ id: z.number() }),
  ),
  delete: action({ item_id: id(), item_member_id: id() }, success),
  /** Everyone with access to the item, the owner first (the people pickers). */
  getAllList: action(
    { item_id: id() },
    z.array(
      z.object({
        item_id: z.number(),
        uid: z.number(),
        username: z.string(),
        /** The display name, or the username when there is none. */
        username_name: z.string(),
        member_group_id: z.string(),
      }),
    ),
  ),
  getMyAllList: action({}, z.array(z.looseObject({}))),
};

export const teamContract = {
  getList: action({}, z.array(Team)),
  save: action({ id: id(), team_name: str() }, z.unknown()),
  delete: action({ id: id() }, success),
  attorn: action({ team_id: id(), username: str(), password: str() }, nothing),
  exitTeam: action({ id: id() }, nothing),
};

export const teamMemberContract = {
  getList: action({ team_id: id() }, z.array(TeamMember)),
  save: action({ team_id: id(), member_username: str(), team_member_group_id: id(1) }, z.unknown()),
  delete: action({ id: id() }, success),
};

export const teamItemContract = {
  save: action({ team_id: id(), item_id: list() }, z.unknown()),
  getList: action({ item_id: id() }, z.array(TeamItem)),
  getListByTeam: action({ team_id: id() }, z.array(TeamItem)),
  delete: action({ id: id() }, success),
};

export const teamItemMemberContract = {
  getList: action({ item_id: id(), team_id: id() }, z.array(TeamItemMember)),
  save: action(
    { id: id(), member_group_id: id(), cat_id: id(), cat_ids: list() },
    z.union([success, nothing]),
  ),
};
