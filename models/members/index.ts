/** Members: item members, teams and the items a team is given. */
import { membershipSource } from '../access';
import { memberRowsForAccess } from './accessRows';

// The access policy reads member rows through its port (models/access/sources.ts).
membershipSource.fill(memberRowsForAccess);

export {
  addMembers,
  listAllMembers,
  listMembers,
  MAX_USERNAMES_PER_CALL,
  myCollaborators,
  removeMember,
} from './members';
export {
  bindTeamItems,
  itemsOfTeam,
  teamItemMembers,
  teamsOfItem,
  unbindTeamItem,
  updateTeamItemMember,
} from './teamItems';
export {
  addTeamMember,
  deleteTeam,
  exitTeam,
  listTeamMembers,
  listTeams,
  removeTeamMember,
  saveTeam,
  transferTeam,
} from './teams';
export { dropMembershipsOf, memberCountsOf, ownsTeams, purgeItemMembers } from './backOffice';
export { exitItem } from './exitItem';
export { coworkerUids, pickablePeople, type PersonOption } from './people';

// Collections other domains still read directly (eslint `quire/domain-faces` sends them here).
export { ItemMember, Team, TeamItem, TeamItemMember, TeamMember } from './schemas';
