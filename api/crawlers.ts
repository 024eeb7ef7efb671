/** ShowDoc answers these user agents with a plain 403 before routing (reference accounts §0.1). */
export const CRAWLER_UA = /spider|crawler|bot\b|headlesschrome|phantomjs|selenium|scrapy/i;
