/**
 * What follows a page in the reader when its item allows it: feedback ("was this helpful?") and
 * comments. Its own chunk: items without either never download it.
 */
import { PageComments } from './PageComments';
import { PageFeedback } from './PageFeedback';

export default function PageExtras({
  pageId,
  comments,
  feedback,
  loggedIn,
}: {
  pageId: number;
  comments: boolean;
  feedback: boolean;
  loggedIn: boolean;
}) {
  return (
    <>
      {feedback && <PageFeedback pageId={pageId} />}
      {comments && <PageComments pageId={pageId} loggedIn={loggedIn} />}
    </>
  );
}
