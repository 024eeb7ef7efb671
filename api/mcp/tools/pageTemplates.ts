/** get_page_template's Markdown templates (ShowDoc's four kinds, written for Quire). */
export const PAGE_TEMPLATES = {
  api: `**Description:**

- Short description of what the endpoint does

**URL:**

- \`http://xx.com/api/user/register\`

**Method:**

- POST

**Parameters:**

| Name     | Required | Type   | Description |
| :------- | :------- | :----- | :---------- |
| username | yes      | string | User name   |
| password | yes      | string | Password    |
| name     | no       | string | Nickname    |

**Response example**

\`\`\`json
{
  "error_code": 0,
  "data": {
    "uid": "1",
    "username": "12154545",
    "name": "Wu",
    "groupid": 2,
    "reg_time": "1436864169",
    "last_login_time": "0"
  }
}
\`\`\`

**Response fields**

| Name    | Type | Description                                  |
| :------ | :--- | :------------------------------------------- |
| groupid | int  | User group: 1 = administrator, 2 = regular user |

**Remarks**

- See the error code list for more answers
`,
  runapi_comment: `/**
 * showdoc
 * @catalog Test/User
 * @title User registration
 * @description The user registration endpoint
 * @method post
 * @url https://www.example.com/api/user/register
 * @header token optional string Login token
 * @param username required string User name
 * @param password required string Password
 * @param name optional string Nickname
 * @return {"error_code":0,"data":{"uid":"1","username":"12154545","name":"Wu","groupid":2}}
 * @return_param groupid int User group: 1 = administrator, 2 = regular user
 * @remark More answers are listed in the error code page
 * @number 99
 */
`,
  database: `- Table of users, holding the registered accounts

| Field    | Type        | Empty | Default | Comment          |
| :------- | :---------- | :---- | :------ | :--------------- |
| uid      | int(10)     | no    |         | User id          |
| username | varchar(20) | no    |         | User name        |
| password | varchar(50) | no    |         | Password hash    |
| name     | varchar(15) | yes   |         | Nickname         |
| reg_time | int(11)     | no    | 0       | Registration time |

- Remarks: none
`,
  general: `# Title

## Overview

What this document is about, in one or two sentences.

## Details

- Point one
- Point two

## Example

\`\`\`
code or configuration
\`\`\`

## Notes

Anything a reader should know before acting on it.
`,
} as const;
