/** Teams, their members, their items and per-item authorities (reference accounts §9.18). */
import type { Team, TeamItem, TeamItemMember, TeamMember } from './types';
import { request } from './request';

export const listTeams = () => request<Team[]>('team/getList');
export const saveTeam = (input: { id?: number; team_name: string }) =>
  request<unknown>('team/save', { id: input.id ?? 0, team_name: input.team_name });
export const deleteTeam = (id: number) => request<unknown>('team/delete', { id });
export const attornTeam = (teamId: number, username: string, password: string) =>
  request<unknown>('team/attorn', { team_id: teamId, username, password });
export const exitTeam = (id: number) => request<unknown>('team/exitTeam', { id });

export const listTeamMembers = (teamId: number) =>
  request<TeamMember[]>('teamMember/getList', { team_id: teamId });
/** Role: 1 ordinary member, 2 team admin. */
export const addTeamMember = (teamId: number, username: string, role: 1 | 2) =>
  request<unknown>('teamMember/save', {
    team_id: teamId,
    member_username: username,
    team_member_group_id: role,
  });
export const removeTeamMember = (id: number) => request<unknown>('teamMember/delete', { id });

export const listTeamItems = (teamId: number) =>
  request<TeamItem[]>('teamItem/getListByTeam', { team_id: teamId });
/** Teams bound to one item (member manager). */
export const listItemTeams = (itemId: number) =>
  request<TeamItem[]>('teamItem/getList', { item_id: itemId });
export const bindTeamItem = (teamId: number, itemIds: number[]) =>
  request<unknown>('teamItem/save', { team_id: teamId, item_id: itemIds.join(',') });
export const unbindTeamItem = (id: number) => request<unknown>('teamItem/delete', { id });

export const listTeamItemMembers = (itemId: number, teamId: number) =>
  request<TeamItemMember[]>('teamItemMember/getList', { item_id: itemId, team_id: teamId });
/** Sends only the field that changes (the server updates only fields present in the body). */
export const setTeamItemMember = (
  id: number,
  change: { member_group_id: number } | { cat_id: number },
) =>
  request<unknown>('teamItemMember/save', {
    id,
    ...change,
    ...('cat_id' in change ? { cat_ids: change.cat_id > 0 ? String(change.cat_id) : '' } : {}),
  });
