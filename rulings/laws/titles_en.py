"""
The hand-written English source of the law catalogue: one block per edition.

Each line is ``NUMBER  Title``. The number is the citation in the catalogue's canonical form
(see ``rulings.laws.normalise_citation``): ``12``, ``12C``, ``12C1``, ``12C1c``, and ``71.1``
for the few numbered sub-sections that hang directly under a law.

* A line with a number and no title keeps the sub-section (it exists in that edition) but the
  compiler was not sure of its title: the catalogue gives it the law's own title and marks it
  ``"verified": false``.
* A law line starting with ``?`` carries the compiler's best title for the law, not checked.
* Where the Laws print a heading the title is that heading as the compiler knows it (for 2007
  checked against the Hebrew text, for 1997 chapter VI against the Dutch text); where they print
  none (most numbered and lettered items since 2007) it is a short description of the content.

``extract_seeds.py`` merges these blocks with the Hebrew and Dutch headings of the seed texts
and writes ``data/laws_<edition>.json``; the package reads only the JSON.
"""

EDITION_1997 = """
1     The Pack - Rank of Cards and Suits
2     The Duplicate Boards
3     Arrangement of Tables
4     Partnerships
5     Assignment of Seats
6     The Shuffle and Deal
7     Control of Board and Cards
8     Sequence of Rounds
9     Procedure Following an Irregularity
10    Assessment of a Penalty
11    Forfeiture of the Right to Penalize
12    Director's Discretionary Powers
12A   Right to Assign an Adjusted Score
12A1  Laws provide no indemnity
12A2  Normal play of the board impossible
12A3  Incorrect penalization
12B   No Adjustment for Undue Severity of Penalty
12C   Assignment of adjusted scores
12C1  Artificial adjusted score
12C2  Assigned adjusted score
12C3  Appeals committee may vary an assigned adjusted score to do equity
13    Incorrect Number of Cards
14    Missing Card
?15   Play of Wrong Board
16    Unauthorized Information
16A   Extraneous Information from Partner
16B   Extraneous Information from Other Sources
16C   Information from Withdrawn Calls and Plays
16C1  Non-offending side: information authorized
16C2  Offending side: information unauthorized
?17   Duration of the Auction
18    Bids
19    Doubles and Redoubles
20    Review and Explanation of Calls
20A   Call Not Clearly Heard
20B   Review of Auction during Auction Period
20C   Review after Final Pass
20C1  Opening lead inquiry
20C2  Review of calls at the first turn to play
20D   Who May Review the Auction
20E   Correction of Error in Review
20F   Explanation of Calls
20F1  During the auction
20F2  During the play period
21    Call Based on Misinformation
21A   Call Based on Caller's Misunderstanding
21B   Call Based on Misinformation from an Opponent
21B1  Change of call after misinformation
21B2  Left-hand opponent may change his subsequent call
21B3  Too late to change a call: adjusted score
22    Procedure after Bidding Has Ended
?23   Enforced Pass
?24   Card Exposed or Led Prior to Play
25    Legal and Illegal Changes of Call
25A   Immediate change of an inadvertent call
25B   Delayed or purposeful change of call
25B1  Substituted call accepted by left-hand opponent
25B2  Substituted call not accepted
?26   Unauthorized Information Given by Change of Call
26A   Withdrawn call related to a specific suit
26B   Other withdrawn calls
27    Insufficient Bid
27A   Insufficient Bid Accepted
27B   Insufficient Bid Not Accepted
27B1  Corrected by a sufficient bid in the same denomination
27B2  Corrected by another sufficient bid or a pass: partner must pass
27B3  Attempted correction by double or redouble
27C   Insufficient Bid Out of Rotation
28    Calls Considered to Be in Rotation
29    Procedure after a Call Out of Rotation
30    Pass Out of Rotation
31    Bid Out of Rotation
32    Double or Redouble Out of Rotation
33    Simultaneous Calls
34    Retention of the Right to Call
35    Inadmissible Calls
36    Inadmissible Double or Redouble
?37   Bid, Double or Redouble in Violation of Obligation to Pass
38    Bid of More Than Seven
39    Call after the Final Pass
40    Partnership Understandings
40A   Right to Choose Call or Play
40B   Concealed Partnership Understandings Prohibited
40C   Director's Option
40D   Regulation of Conventions
40E   Convention Card
40E1  Right to prescribe a convention card
40E2  Referring to the opponents' convention card
41    Commencement of Play
41A   Face-down Opening Lead
41B   Review of Auction and Questions
41C   Opening Lead Faced
41D   Dummy's Hand
42    Dummy's Rights
42A   Absolute Rights
42A1  Give information on fact or law
42A2  Keep count of tricks
42A3  Play as declarer's agent
42B   Qualified Rights
42B1  Revoke inquiries
42B2  Attempt to prevent an irregularity
42B3  Draw attention to an irregularity after play
43    Dummy's Limitations
43A   Limitations on Dummy
43A1  General limitations
43A1a Calling the Director
43A1b Calling attention to an irregularity
43A1c Participating in or commenting on the play
43A2  Limitations carrying a specific penalty
43A2a Exchanging hands with declarer
43A2b Leaving his seat to watch declarer
43A2c Looking at a defender's hand
43B   Penalties for Violation
43B1  General penalties
43B2  Specific penalties
43B2a Dummy warns declarer not to lead from the wrong hand
43B2b Dummy asks declarer about a possible irregularity
43B3  Dummy first to draw attention to a defender's irregularity
44    Sequence and Procedure of Play
44A   Lead to a Trick
44B   Subsequent Plays to a Trick
44C   Requirement to Follow Suit
44D   Inability to Follow Suit
44E   Tricks Containing Trumps
44F   Tricks Not Containing Trumps
44G   Leads to Subsequent Tricks
45    Card Played
45A   Play of Card from a Hand
45B   Play of Card from Dummy
45C   Compulsory Play of Card
45C1  Defender's card
45C2  Declarer's card
45C3  Dummy's card
45C4  Card named or designated
45C4a Play of a named card
45C4b Correction of an inadvertent designation
45C5  Penalty card
45D   Card Misplayed by Dummy
45E   Fifth Card Played to Trick
45E1  By a defender
45E2  By declarer
45F   Dummy Indicates Card
45G   Turning the Trick
46    Incomplete or Erroneous Call of Card from Dummy
46A   Proper Form for Designating Dummy's Card
46B   Incomplete or Erroneous Call
46B1  Incomplete designation of rank
46B2  Suit designated but not rank
46B3  Rank designated but not suit
46B3a In leading
46B3b In all other cases
46B4  Card designated that is not in dummy
46B5  Neither suit nor rank designated
47    Retraction of Card Played
47A   To Comply with Penalty
47B   To Correct an Illegal Play
47C   To Change an Inadvertent Designation
47D   Following Opponent's Change of Play
47E   Change of Play Based on Misinformation
47E1  Lead out of turn
47E2  Retraction of a card played
47E2a No subsequent play
47E2b Subsequent cards played
47F   Illegal Retraction
48    Exposure of Declarer's Cards
48A   Declarer Exposes a Card
48B   Declarer Faces Cards
48B1  After an opening lead out of turn
48B2  At any other time
49    Exposure of a Defender's Cards
50    Disposition of Penalty Card
50A   Penalty Card Remains Exposed
50B   Major or Minor Penalty Card
50C   Disposition of Minor Penalty Card
50D   Disposition of Major Penalty Card
50D1  Offender to play
50D2  Offender's partner to lead
50D2a Declarer requires or prohibits the lead of the suit
50D2b No lead restriction
51    Two or More Penalty Cards
51A   Offender to Play
51B   Offender's Partner to Lead
51B1  Penalty cards in the same suit
51B1a Declarer requires the lead of that suit
51B1b Declarer prohibits the lead of that suit
51B2  Penalty cards in more than one suit
51B2a Declarer requires the lead of a specified suit
51B2b Declarer prohibits the lead of specified suits
52    Failure to Lead or Play a Penalty Card
52A   Defender Fails to Play Penalty Card
52B   Defender Plays Another Card
52B1  Play of another card accepted
52B1a Declarer may accept the play
52B1b Declarer must accept the play
52B1c Penalty card remains a penalty card
52B2  Play of another card not accepted
53    Lead Out of Turn Accepted
53A   Lead Out of Turn Treated as Correct Lead
53B   Wrong Defender Plays Card to Declarer's Irregular Lead
53C   Proper Lead Subsequent to Irregular Lead
54    Faced Opening Lead Out of Turn
54A   Declarer Spreads His Hand
54B   Declarer Accepts Lead
54B1  Declarer plays the second card
54B2  Second card played from dummy
54C   Declarer Must Accept Lead
54D   Declarer Refuses Opening Lead
55    Declarer's Lead Out of Turn
55A   Declarer's Lead Accepted
55B   Declarer Required to Retract Lead
55B1  Defender's turn to lead
55B2  Declarer to lead from his hand or dummy
55C   Declarer Might Obtain Information
56    Defender's Lead Out of Turn
57    Premature Lead or Play by Defender
57A   Premature Play or Lead to Next Trick
57A1  Highest card
57A2  Lowest card
57A3  Card of another suit
57B   Offender's Partner Cannot Comply with Penalty
57C   Declarer Has Played from Both Hands before Irregularity
58    Simultaneous Leads or Plays
58A   Simultaneous Plays by Two Players
58B   Simultaneous Cards from One Hand
58B1  One card visible
58B2  More than one card visible
58B3  After retraction of a visible card
58B4  Error not discovered
59    Inability to Lead or Play as Required
60    Play after an Illegal Play
60A   Play of Card after Irregularity
60A1  Forfeiture of the right to penalize
60A2  Irregular play treated as legal
60A3  Prior obligations to comply with a penalty remain
60B   Defender Plays before Required Lead by Declarer
60C   Play by Offending Side before Assessment of Penalty
61    Failure to Follow Suit - Inquiries Concerning a Revoke
61A   Definition of Revoke
61B   Right to Inquire about a Possible Revoke
62    Correction of a Revoke
62A   Revoke Must Be Corrected
62B   Correcting a Revoke
62B1  Defender's card
62B2  Declarer's or dummy's card, or a defender's faced card
62C   Subsequent Cards Played to Trick
62C1  By the non-offending side
62C2  By the partner of the offender
62D   Revoke on Twelfth Trick
62D1  Must be corrected
62D2  Offender's partner had not played to the twelfth trick
63    Establishment of a Revoke
63A   Revoke Becomes Established
63A1  Offending side leads or plays to the next trick
63A2  Offending side names or designates a card for the next trick
63A3  Offending side makes or agrees to a claim or concession
63B   Attention Illegally Drawn
63C   Revoke May Not Be Corrected
64    Procedure after Establishment of a Revoke
64A   Penalty Assessed
64A1  Offending player won the revoke trick: revoke trick and one more transferred
64A2  Offending player did not win the revoke trick: up to two tricks transferred
64B   No Penalty
64B1  Offending side won neither the revoke trick nor any subsequent trick
64B2  Second revoke in the same suit
64B3  Revoke by failure to play a faced card
64B4  Attention drawn after the non-offending side calls on the next deal
64B5  Attention drawn after the round has ended
64B6  Revoke on the twelfth trick
64C   Director Responsible for Equity
65    Arrangement of Tricks
65A   Completed Trick
65B   Keeping Track of the Ownership of Tricks
65B1  Tricks won
65B2  Tricks lost
65C   Orderliness
65D   Agreement on Results of Play
66    Inspection of Tricks
66A   Current Trick
66B   Own Last Card
66C   Quitted Tricks
66D   After the Conclusion of Play
67    Defective Trick
67A   Before Both Sides Play to Next Trick
67A1  Player failed to play a card
67A2  Player played too many cards
67B   After Both Sides Play to Next Trick
67B1  Offender has too many cards (failed to play to the trick)
67B1a Offender able to follow suit
67B1b Offender unable to follow suit
67B2  Offender has too few cards (played too many to the trick)
68    Claim or Concession of Tricks
68A   Claim Defined
68B   Concession Defined
68C   Clarification Required for Claim
68D   Play Ceases
?69   Acquiescence in Claim or Concession
69A   Agreement to a claim or concession established
69B   Agreement withdrawn within the correction period
70    Contested Claim or Concession
70A   General Objective
70B   Clarification Statement Repeated
70B1  Claimer repeats his clarification statement
70B2  All hands faced
70B3  Objections heard
70C   There Is an Outstanding Trump
70C1  Claimer did not mention the trump
70C2  Claimer probably unaware of the trump
70C3  Trick could be lost to the trump by normal play
70D   Claimer proposes a new line of play
70E   Unstated Line of Play (finesse or drop)
71    Concession Cancelled
71A   Concession of a trick that cannot be lost
71B   Contract already made or defeated
71C   Implausible concession
72    General Principles
73    Communication
73A   Proper Form of Communication between Partners
73A1  Method: calls and plays only
73A2  Correct manner of calls and plays
73B   Inappropriate Communication between Partners
73B1  Gratuitous information
73B2  Prearranged communication
73C   Player Receives Unauthorized Information from Partner
73D   Variations in Tempo or Manner
73D1  Inadvertent variations
73D2  Intentional variations
73E   Deception
73F   Violation of Proprieties
73F1  Violation resulting in damage
73F2  Player injured by illegal deception
74    Conduct and Etiquette
74A   Proper Attitude
74B   Etiquette
74C   Violations of Procedure
?75   Mistaken Explanation or Mistaken Bid
76    Spectators
77    Duplicate Bridge Scoring Table
78    Methods of Scoring
79    Tricks Won
79A   Agreement on Tricks Won
79B   Disagreement on Tricks Won
79C   Error in Computing or Tabulating the Agreed-upon Score
?80   Sponsoring Organization
81    The Director
81A   Official Status
81B   Restrictions and Responsibilities
81C   Director's Duties and Powers
81D   Delegation of Duties
82    Rectification of Errors of Procedure
82A   Director's Duty
82B   Correction of Error
82C   Director's Error
83    Notification of the Right to Appeal
84    Rulings on Agreed Facts
84A   No Penalty
84B   Penalty under Law
84C   Player's Option
84D   Director's Option
85    Rulings on Disputed Facts
85A   Director's Assessment
85B   Facts Not Determined
?86   In Team Play
87    Fouled Board
87A   Definition
87B   Scoring
88    Award of Indemnity Points
?89   Penalties in Individual Events
90    Procedural Penalties
90A   Director's Authority
90B   Offences Subject to Procedural Penalty
91    Penalize or Suspend
91A   Director's Power
91B   Right to Disqualify
92    Right to Appeal
92A   Contestant's Right to Appeal
92B   Time of Appeal
92C   How to Appeal
92D   Concurrence of Appellants
92D1  Pairs event: both members of the pair concur
92D2  Team event: the captain concurs
93    Procedures of Appeal
93A   No Appeals Committee
93B   Appeals Committee Available
93B1  Chief Director hears questions of law and regulation
93B2  Committee hears all other appeals
93B3  Committee's powers
93C   Further Appeal
"""

EDITION_2007 = """
1     The Pack - Rank of Cards and Suits
2     The Duplicate Boards
3     Arrangement of Tables
4     Partnerships
5     Assignment of Seats
5A    Initial Position
5B    Change of Direction or Table
6     The Shuffle and Deal
6A    The Shuffle
6B    The Deal
6C    Representation of Both Pairs
6D    New Shuffle and Redeal
6D1   Cards incorrectly dealt or a card seen: new shuffle and redeal
6D2   Deal from a sorted pack or from another session: no valid result
6D3   New shuffle and redeal required by the Director
6E    Director's Option on Shuffling and Dealing
6E1   Shuffle and deal at each table
6E2   Director pre-deals the boards
6E3   Assistants or other agents pre-deal
6E4   Other method of dealing or pre-dealing
6F    Duplication of Board
7     Control of Board and Cards
7A    Placement of Board
7B    Removal of Cards from Board
7B1   Each player takes the hand from the pocket for his seat
7B2   Counting the cards face down
7B3   Keeping possession of one's own cards during play
7C    Returning Cards to Board
7D    Responsibility for Procedures
8     Sequence of Rounds
8A    Movement of Boards and Players
8A1   Director's instructions on movement
8A2   North responsible for moving the boards
8B    End of Round
8B1   Round ends when the Director signals the next round
8B2   Round not ended for a postponed board
8C    End of Last Round and End of Session
9     Procedure Following an Irregularity
9A    Drawing Attention to an Irregularity
9A1   During the auction period
9A2   During the play period
9A3   Dummy may not draw attention during the play
9A4   No obligation to draw attention to one's own side's infraction
9B    After Attention Is Drawn to an Irregularity
9B1   Summoning the Director
9B1a  Director to be summoned at once
9B1b  Any player, including dummy, may summon the Director
9B1c  Summoning the Director forfeits no rights
9B1d  Drawing attention to one's own side's irregularity does not affect rights
9B2   No action before the Director has explained rectification
9C    Premature Correction of an Irregularity
10    Assessment of Rectification
10A   Right to Determine Rectification
10B   Cancellation of Enforcement or Waiver of Rectification
10C   Choice after Irregularity
10C1  Director explains all the options
10C2  Option chosen without consulting partner
10C3  Non-offending side may choose its most advantageous option
10C4  Offenders may make any advantageous call or play after rectification
11    Forfeiture of the Right to Rectification
11A   Action by Non-offending Side
11B   Penalty after Forfeiture of the Right to Rectification
12    Director's Discretionary Powers
12A   Power to Award an Adjusted Score
12A1  Laws provide no indemnity for the type of violation
12A2  Normal play of the board impossible: artificial adjusted score
12A3  Incorrect rectification of an irregularity
12B   Objectives of Score Adjustment
12B1  Redress damage and take away any advantage gained by the infraction
12B2  No adjustment because the rectification is too severe or too favourable
12C   Awarding an Adjusted Score
12C1  Assigned adjusted score
12C1a Assigned adjusted score replaces the table result
12C1b Serious error or gambling action by the non-offending side
12C1c Weighted assigned adjusted score
12C1d Possibilities numerous or not obvious: artificial adjusted score
12C1e Most favourable likely and most unfavourable probable result, in place of weighting
12C1f Scores awarded to the two sides need not balance
12C2  Artificial adjusted score
12C2a Average plus, average or average minus according to responsibility
12C2b Artificial adjusted score at IMPs (plus or minus 3 IMPs)
12C2c Session score above 60% or below 40%
12C3  Individual events
12C4  Non-balancing adjusted scores in knockout play
13    Incorrect Number of Cards
13A   Director Deems Normal Play Possible
13B   Adjusted Score and Possible Penalty
13C   Play Completed
13D   No Call Made
13D1  Director corrects the hands
13D2  A player has seen a card of another player's hand
13D2a Information not significant: board played and scored
13D2b Information significant: adjusted score
13E   Placement or Transfer of a Card
13F   Surplus Card
14    Missing Card
14A   Hand Found Deficient before Play Commences
14A1  Card found: restored to the deficient hand
14A2  Card not found: deal reconstructed from another pack
14A3  Auction and play continue without change of call
14B   Hand Found Deficient after Play Commences
14B1  Card found among the played cards: Law 67 applies
14B2  Card found elsewhere: restored to the deficient hand
14B3  Card not found: deal reconstructed from another pack
14B4  Restored card deemed to have belonged to the hand throughout
14C   Information from a Restored Card
15    Play of Wrong Board
15A   Players Have Not Previously Played Board
15A1  Score as played
15A2  Correct board may be played later
15B   One or More Players Have Previously Played Board
15C   Discovered during the Auction Period
16    Authorised and Unauthorised Information
16A   Players' Use of Information
16A1  Information a player may use
16A1a Legal calls and plays of the current board
16A1b Authorised information from a withdrawn action
16A1c Information authorised by law or regulation
16A1d Information held before taking the hand from the board
16A2  Own score, opponents' traits, tournament regulations
16A3  No call or play based on extraneous information
16A4  Breach of this Law causing damage: score adjusted
16B   Extraneous Information from Partner
16B1  Partner may not use extraneous information
16B1a Partner may not choose a logical alternative demonstrably suggested
16B1b Definition of a logical alternative
16B2  Reserving the right to summon the Director
16B3  Summoning the Director when play ends
16C   Extraneous Information from Other Sources
16C1  Director to be notified forthwith
16C2  Director's options before the auction
16C2a Adjust the players' positions
16C2b Order a redeal
16C2c Allow play, ready to adjust the score
16C2d Award an artificial adjusted score
16C3  Information received after the auction has begun
16D   Information from Withdrawn Calls and Plays
16D1  Non-offending side: information authorised
16D2  Offending side: information unauthorised
17    The Auction Period
17A   Auction Period Starts
17B   The First Call
17C   Successive Calls
17D   Cards from Wrong Board
17D1  Call made with cards from the wrong board cancelled
17D2  Offender calls again with his correct hand
17D3  Different call when the wrong board is played later: adjusted score
17D4  Procedural penalty
17E   End of the Auction Period
17E1  Auction ends as Law 22 provides
17E2  Three passes including a pass out of rotation
18    Bids
18A   Proper Form
18B   To Supersede a Bid
18C   Sufficient Bid
18D   Insufficient Bid
18E   Rank of the Denominations
18F   Different Methods
19    Doubles and Redoubles
19A   Doubles
19A1  Double only the last preceding bid, made by an opponent
19A2  Proper form of a double
19A3  Double misstating the bid
19B   Redoubles
19B1  Redouble only the last preceding double, made by an opponent
19B2  Proper form of a redouble
19B3  Redouble misstating the doubled bid
19C   Double or Redouble Superseded
19D   Scoring a Doubled or Redoubled Contract
20    Review and Explanation of Calls
20A   Call Not Clearly Heard
20B   Review of Auction during Auction Period
20C   Review after Final Pass
20C1  Defender may ask whether it is his opening lead
20C2  Review of the auction at the first turn to play
20D   Who May Review the Auction
20E   Correction of Error in Review
20F   Explanation of Calls
20F1  Explanation during the auction
20F2  Explanation during the play period
20F3  Asking about a single call
20F4  Player's own mistaken explanation
20F5  Partner's mistaken explanation
20F5a No correction or indication during the auction
20F5b Summon the Director and inform the opponents at the first legal opportunity
20F6  Action based on misinformation from an opponent
20G   Incorrect Procedure
20G1  Question asked solely for partner's benefit
20G2  Consulting one's own system card and notes
21    Call Based on Misinformation
21A   Call Based on Caller's Misunderstanding
21B   Call Based on Misinformation from an Opponent
21B1  Change of call after misinformation
21B1a Call may be changed when affected by misinformation
21B1b Mistaken explanation presumed rather than mistaken call
21B2  Left-hand opponent may change his subsequent call
21B3  Too late to change a call: adjusted score
22    Procedure after the Bidding Has Ended
22A   End of Auction
22A1  All four players pass
22A2  Three consecutive passes after a bid
22B   End of Auction Period
22B1  Opening lead faced
22B2  Passed-out board: hands returned to the board
23    Awareness of Potential Damage
24    Card Exposed or Led during the Auction Period
24A   Low Card Not Prematurely Led
24B   Single Card of Honour Rank or Card Prematurely Led
24C   Two or More Cards Are Exposed
25    Legal and Illegal Changes of Call
25A   Unintended Call
25A1  Unintended call replaced before partner calls
25A2  No replacement after partner has called
25A3  No replacement after the auction ends
25A4  Left-hand opponent may withdraw his call
25B   Intended Call
25B1  Left-hand opponent may accept the substituted call
25B2  Substituted call cancelled: original call stands
25B3  Law 16 applies to the withdrawn call
26    Call Withdrawn, Lead Restrictions
26A   Call Related to Specific Suit
26A1  Suit specified in the legal auction: no lead restriction
26A2  Suit not specified: declarer's options
26A2a Require the lead of that suit
26A2b Prohibit the lead of that suit
26B   Other Withdrawn Calls
27    Insufficient Bid
27A   Acceptance of Insufficient Bid
27A1  Left-hand opponent may accept the insufficient bid
27A2  Insufficient bid out of rotation: Law 31 applies
27B   Insufficient Bid Not Accepted
27B1  Correction without further rectification
27B1a Lowest sufficient bid in the same denomination(s)
27B1b Call with the same or a more precise meaning
27B2  Other sufficient bid or pass: partner must pass
27B3  Double or redouble substituted
27B4  Another insufficient bid substituted
27C   Premature Replacement
27D   Non-offending Side Damaged
28    Calls Considered to Be in Rotation
28A   RHO Required to Pass
28B   Call by Correct Player Cancelling Call Out of Rotation
29    Procedure after a Call Out of Rotation
29A   Forfeiture of Right to Rectification
29B   Out-of-rotation Call Cancelled
29C   Call Out of Rotation Is Artificial
30    Pass Out of Rotation
30A   Before Any Player Has Bid
30B   After Any Player Has Bid
30B1  Pass at right-hand opponent's turn
30B2  Pass at partner's turn
30B2a Offender must pass at his next turn
30B2b Offender's partner may not double or redouble
30B3  Pass at left-hand opponent's turn
30C   When Pass Is Artificial
31    Bid Out of Rotation
31A   RHO's Turn
31A1  Right-hand opponent passes: offender repeats his call
31A2  Right-hand opponent bids, doubles or redoubles
31A2a Offender repeats the denomination: partner passes once
31A2b Offender does not repeat the denomination: partner must pass throughout
31B   Partner's or LHO's Turn
32    Double or Redouble Out of Rotation
32A   Made at Offender's Partner's Turn
32B   Made at RHO's Turn
32B1  Right-hand opponent passes: offender repeats the double or redouble
32B2  Right-hand opponent bids, doubles or redoubles
33    Simultaneous Calls
34    Retention of the Right to Call
35    Inadmissible Calls
35A   Double or redouble not permitted by Law 19
35B   Bid, double or redouble by a player required to pass
35C   Bid of more than seven
35D   Call after the final pass
36    Inadmissible Doubles and Redoubles
36A   Offender's LHO Calls before Rectification
36B   Offender's LHO Does Not Call before Rectification
36B1  Inadmissible double or redouble cancelled
36B2  Offender substitutes a legal call; partner must pass
36B3  Laws 23 and 26 may apply
36B4  Call out of rotation: auction reverts to the correct player
37    Action Violating Obligation to Pass
37A   Offender's LHO Calls before Rectification
37B   Offender's LHO Does Not Call before Rectification
37B1  Call by a player required to pass cancelled
37B2  Pass substituted; offending side must pass
38    Bid of More Than Seven
38A   Play Not Permitted
38B   Bid and Subsequent Calls Cancelled
38C   Offending Side Must Pass
38D   Laws 23 and 26 May Apply
39    Call after the Final Pass
39A   Calls Cancelled
39B   Defender's Pass or Any Call by Declaring Side
39C   Other Action by Defender
40    Partnership Understandings
40A   Players' Systemic Agreements
40A1  Partnership understandings
40A1a Understandings reached explicitly or implicitly
40A1b Duty to make understandings available to opponents
40A2  Information must arise from the calls, plays and conditions of the deal
40A3  Call or play without prior announcement
40B   Special Partnership Understandings
40B1  Special partnership understandings defined
40B1a Regulating Authority designates special partnership understandings
40B1b Agreement between partners is a partnership understanding
40B2  Powers of the Regulating Authority
40B2a Allow, disallow or allow conditionally any special understanding
40B2b No consulting one's own system card during auction and play
40B2c Consulting the opponents' system card
40B2d Restricting psychic artificial calls
40B3  Varying understandings after a question or an irregularity
40B4  Damage from failure to disclose: adjusted score
40B5  Damage from an unauthorised special partnership understanding
40B6  Disclosure when explaining partner's call or play
40B6a Disclose all special information from agreement or experience
40B6b Information crucial to an opponent's choice not given: adjusted score
40C   Deviation from System and Psychic Action
40C1  Deviation allowed if partner has no more reason to be aware
40C2  No obligation to disclose a deviation
40C3  Aids to memory; repeated violations
40C3a No aids to memory, calculation or technique
40C3b Repeated violation of disclosure requirements
41    Commencement of Play
41A   Face-down Opening Lead
41B   Review of Auction and Questions
41C   Opening Lead Faced
41D   Dummy's Hand
42    Dummy's Rights
42A   Absolute Rights
42A1  Give information on fact or law in the Director's presence
42A2  Keep count of tricks won and lost
42A3  Play dummy's cards as declarer's agent
42B   Qualified Rights
42B1  Ask declarer whether he has a card of the suit led
42B2  Try to prevent any irregularity by declarer
42B3  Draw attention to any irregularity after play ends
43    Dummy's Limitations
43A   Limitations on Dummy
43A1  General limitations
43A1a Dummy should not initiate a call for the Director during play
43A1b Dummy may not call attention to an irregularity during play
43A1c Dummy may not participate in the play
43A2  Specific limitations
43A2a Exchanging hands with declarer
43A2b Leaving his seat to watch declarer
43A2c Looking at a defender's hand
43B   Violations
43B1  Procedural penalty for violating the limitations
43B2  After violating the limitations in A2
43B2a Dummy warns declarer not to lead from the wrong hand
43B2b Dummy is first to ask declarer about a possible revoke
43B3  Dummy is first to draw attention to a defender's irregularity
44    Sequence and Procedure of Play
44A   Lead to a Trick
44B   Subsequent Plays to a Trick
44C   Requirement to Follow Suit
44D   Inability to Follow Suit
44E   Tricks Containing Trumps
44F   Tricks Not Containing Trumps
44G   Leads to Subsequent Tricks
45    Card Played
45A   Play of Card from a Hand
45B   Play of Card from Dummy
45C   Compulsory Play of Card
45C1  Defender's card held so that partner could see it
45C2  Declarer's card from his hand
45C2a Held face up, touching or nearly touching the table
45C2b Held in a position indicating it has been played
45C3  Card of dummy's deliberately touched by declarer
45C4  Card named or designated
45C4a Card named or designated must be played
45C4b Inadvertent designation may be changed
45C5  Penalty card to be played under Law 50
45D   Card Misplayed by Dummy
45E   Fifth Card Played to a Trick
45E1  By a defender
45E2  By declarer
45F   Dummy Indicates Card
45G   Turning the Trick
46    Incomplete or Erroneous Call of Card from Dummy
46A   Proper Form for Designating Dummy's Card
46B   Incomplete or Erroneous Call
46B1  "High", "win" or "low"
46B1a "High": the highest card
46B1b "Win": the lowest card expected to win the trick
46B1c "Low": the lowest card
46B2  Suit designated but not rank: the lowest card
46B3  Rank designated but not suit
46B3a In leading
46B3b In all other cases
46B4  Card designated that is not in dummy
46B5  Neither suit nor rank designated
47    Retraction of Card Played
47A   In Course of Rectification
47B   To Correct an Illegal Play
47C   To Change an Inadvertent Designation
47D   Following Opponent's Change of Play
47E   Change of Play Based on Misinformation
47E1  Lead out of turn after mistaken information
47E2  Play after a mistaken explanation
47E2a Card may be withdrawn
47E2b Too late to change the play: adjusted score
47F   Other Retraction
47F1  Retraction under Law 53C
47F2  No other retraction
48    Exposure of Declarer's Cards
48A   Declarer Exposes a Card
48B   Declarer Faces Cards
48B1  After an opening lead out of turn: Law 54
48B2  At any other time: treated as a claim or concession
49    Exposure of a Defender's Cards
50    Disposition of Penalty Card
50A   Penalty Card Remains Exposed
50B   Major or Minor Penalty Card?
50C   Disposition of Minor Penalty Card
50D   Disposition of Major Penalty Card
50D1  Offender to play
50D1a Major penalty card played at the first legal opportunity
50D1b Following suit and lead or play restrictions take precedence
50D2  Offender's partner to lead
50D2a Declarer requires or prohibits the lead of the suit
50D2b Declarer does not require or prohibit a lead
50E   Information from a Penalty Card
50E1  Requirements for playing a penalty card: authorised
50E2  Other information from the penalty card: unauthorised to partner
50E3  Damage from the information: adjusted score
51    Two or More Penalty Cards
51A   Offender to Play
51B   Offender's Partner to Lead
51B1  Penalty cards in one suit
51B1a Declarer requires the lead of that suit
51B1b Declarer prohibits the lead of that suit
51B2  Penalty cards in more than one suit
51B2a Declarer requires the lead of a specified suit
51B2b Declarer prohibits the lead of specified suits
52    Failure to Lead or Play a Penalty Card
52A   Defender Fails to Lead or Play Penalty Card
52B   Defender Plays Another Card
52B1  Card led or played may be accepted
52B1a Declarer may accept the lead or play
52B1b Declarer must accept it once he has played to the trick
52B1c Penalty card remains a penalty card
52B2  Card not accepted: penalty card substituted
53    Lead Out of Turn Accepted
53A   Lead Out of Turn Treated as Correct Lead
53B   Wrong Defender Plays Card to Declarer's Irregular Lead
53C   Proper Lead Subsequent to Irregular Lead
54    Faced Opening Lead Out of Turn
54A   Declarer Spreads His Hand
54B   Declarer Accepts Lead
54B1  Second card played from declarer's hand
54B2  Second card played from dummy
54C   Declarer Must Accept Lead
54D   Declarer Refuses Opening Lead
54E   Opening Lead by the Wrong Side
55    Declarer's Lead Out of Turn
55A   Declarer's Lead Accepted
55B   Declarer Required to Retract Lead
55B1  Declarer led when a defender was to lead
55B2  Declarer led from the wrong hand
55C   Declarer Might Obtain Information
56    Defender's Lead Out of Turn
57    Premature Lead or Play
57A   Premature Play or Lead to Next Trick
57A1  Offender's partner to play his highest card of the suit led
57A2  Offender's partner to play his lowest card of the suit led
57A3  Offender's partner forbidden to play a card of another specified suit
57B   Offender's Partner Cannot Comply
57C   Declarer or Dummy Has Played
57C1  Declarer has played from both hands: no rectification
57C2  Card prematurely played by declarer is a played card
58    Simultaneous Leads or Plays
58A   Simultaneous Plays by Two Players
58B   Simultaneous Cards from One Hand
58B1  One card visible: that card is played
58B2  More than one card visible: player designates the card
58B3  Opponent may withdraw a card played after a withdrawn visible card
58B4  Simultaneous play not discovered: Law 67 applies
59    Inability to Lead or Play as Required
60    Play after an Illegal Play
60A   Play of Card after Irregularity
60A1  Non-offending player's play forfeits rectification
60A2  Illegal play then treated as in rotation
60A3  Offending side's prior obligations remain
60B   Defender Plays before Required Lead by Declarer
60C   Play by Offending Side before Assessment of Rectification
61    Failure to Follow Suit - Inquiries Concerning a Revoke
61A   Definition of Revoke
61B   Right to Inquire about a Possible Revoke
61B1  Declarer may ask a defender
61B2  Dummy's inquiries
61B2a Dummy may ask declarer
61B2b Dummy may not ask a defender
61B3  Defenders may ask declarer and, unless prohibited, each other
62    Correction of a Revoke
62A   Revoke Must Be Corrected
62B   Correcting a Revoke
62B1  Defender's unfaced card becomes a major penalty card
62B2  Card from declarer's or dummy's hand, or a faced card: replaced
62C   Subsequent Cards Played to Trick
62C1  Non-offending side may withdraw cards played after the revoke
62C2  Offender's partner may then withdraw his card
62C3  Claim of revoke does not authorise inspection of quitted tricks
62D   Revoke on Trick Twelve
62D1  Revoke on trick twelve must be corrected
62D2  Offender's partner had not yet played to trick twelve
63    Establishment of a Revoke
63A   Revoke Becomes Established
63A1  Offending side leads or plays to the following trick
63A2  Offending side names or designates a card for the following trick
63A3  Offending side makes or agrees to a claim or concession
63B   Revoke May Not Be Corrected
64    Procedure after Establishment of a Revoke
64A   Automatic Trick Adjustment
64A1  Offending player won the revoke trick: revoke trick and one more transferred
64A2  Offending player did not win the revoke trick: one trick transferred
64B   No Trick Adjustment
64B1  Offending side won neither the revoke trick nor any subsequent trick
64B2  Subsequent revoke in the same suit by the same player
64B3  Revoke by failing to play a faced card
64B4  Attention drawn after the non-offending side called on the next deal
64B5  Attention drawn after the round has ended
64B6  Revoke on trick twelve
64B7  Both sides revoked on the same board
64C   Director Responsible for Equity
65    Arrangement of Tricks
65A   Completed Trick
65B   Keeping Track of the Ownership of Tricks
65B1  Trick won: card pointed towards partner
65B2  Trick lost: card pointed towards the opponents
65B3  Card pointed the wrong way
65C   Orderliness
65D   Agreement on Results of Play
66    Inspection of Tricks
66A   Current Trick
66B   Own Last Card
66C   Quitted Tricks
66D   After the Conclusion of Play
67    Defective Trick
67A   Before Both Sides Play to Next Trick
67A1  Failure to play a card: offender supplies a card
67A2  Too many cards played to the trick
67B   After Both Sides Play to Next Trick
67B1  Offender failed to play a card to the defective trick
67B1a Offender has a card of the suit led
67B1b Offender has no card of the suit led
67B2  Offender played more than one card to the defective trick
67B2a Extra cards restored to the offender's hand
67B2b Restored card deemed to have been in the hand throughout
68    Claim or Concession of Tricks
68A   Claim Defined
68B   Concession Defined
68B1  Statement that a contestant will lose tricks
68B2  Defender's concession with partner's immediate objection
68C   Clarification Required for Claim
68D   Play Ceases
?69   Agreed Claim or Concession
69A   Agreement Established
69B   Agreement cancelled within the correction period
69B1  Player agreed to lose a trick his side had won
69B2  Player agreed to lose a trick his side would likely have won
70    Contested Claim or Concession
70A   General Objective
70B   Clarification Statement Repeated
70B1  Claimer repeats his clarification statement
70B2  Director hears the opponents' objections
70B3  Players may be required to face their remaining cards
70C   There Is an Outstanding Trump
70C1  Claimer made no statement about the trump
70C2  Claimer may have been unaware of the trump
70C3  A trick could be lost to the trump by any normal play
70D   Director's Considerations
70D1  No successful line not in the statement if a less successful normal line exists
70D2  Defender's claim depending on partner's choice of play
70D3  Play after the claim as evidence
70E   Unstated Line of Play
70E1  Unstated line depending on finding a card with one opponent
70E2  Regulating Authority may specify the order of play in a suit
71    Concession Cancelled
71.1  Conceded trick his side had in fact won
71.2  Conceded trick that could not be lost by any normal play
72    General Principles
72A   Observance of Laws
72B   Infraction of Law
72B1  No intentional infraction
72B2  No obligation to draw attention to one's own side's infraction
72B3  No attempt to conceal an infraction
73    Communication
73A   Appropriate Communication between Partners
73A1  Communication only by calls and plays
73A2  Calls and plays without special emphasis, mannerism or undue hesitation
73B   Inappropriate Communication between Partners
73B1  Communication through the manner of calls and plays, remarks or gestures
73B2  Prearranged methods of communication
73C   Player Receives Unauthorised Information from Partner
73D   Variations in Tempo or Manner
73D1  Steady tempo and unvarying manner
73D2  Attempting to mislead an opponent
73E   Deception
73F   Violation of Proprieties
74    Conduct and Etiquette
74A   Proper Attitude
74A1  Courteous attitude at all times
74A2  Avoiding remarks or actions that cause annoyance or embarrassment
74A3  Correct and uniform procedure in calling and playing
74B   Etiquette
74B1  Paying insufficient attention to the game
74B2  Gratuitous comments during auction and play
74B3  Detaching a card before it is one's turn to play
74B4  Prolonging play unnecessarily
74B5  Summoning and addressing the Director discourteously
74C   Violations of Procedure
74C1  Different designations for the same call
74C2  Indicating approval or disapproval of a call or play
74C3  Indicating the expectation or intention of winning or losing a trick
74C4  Comments or actions drawing attention to a significant occurrence
74C5  Looking intently at another player or his hand
74C6  Showing an obvious lack of further interest in a deal
74C7  Varying tempo to disconcert an opponent
74C8  Leaving the table needlessly before the round ends
75    Mistaken Explanation or Mistaken Call
75A   Mistake Causing Unauthorised Information
75B   Mistaken Explanation
75C   Mistaken Call
76    Spectators
76A   Control
76A1  Spectators subject to the Director's control
76A2  Electronic transmission of play
76B   At the Table
76B1  Looking at no more than one hand
76B2  No reaction to calls or play
76B3  No mannerisms or remarks; no conversation with a player
76B4  Not distracting a player
76B5  Not calling attention to any aspect of the game
76C   Participation
76C1  Speaking on fact or law only when asked by the Director
76C2  Rectification of irregularities caused by a spectator
76D   Status
77    Duplicate Bridge Scoring Table
78    Methods of Scoring
78A   Matchpoint Scoring
78B   International Matchpoint Scoring
78C   Total Point Scoring
78D   Conditions of Contest
79    Tricks Won
79A   Agreement on Tricks Won
79A1  Agreed before the hands are returned to the board
79A2  No knowingly accepting a trick not won or conceding a trick not lost
79B   Disagreement on Tricks Won
79B1  Claim or concession: Law 69 applies
79B2  Otherwise the Director rules on the score to be recorded
79C   Error in Score
79C1  Correction period for an error in computing or recording the score
79C2  Corrections after the correction period
80    Regulation and Organisation
80A   The Regulating Authority
80A1  Who is the Regulating Authority
80A1a The World Bridge Federation
80A1b The Zonal authority
80A1c The National Bridge Organisation
80A2  Responsibilities and powers
80A3  Delegation of powers
80B   Tournament Organiser
80B1  Recognition of the Tournament Organiser
80B2  Powers and duties of the Tournament Organiser
80B2a Appointing the Director
80B2b Advance arrangements for the tournament
80B2c Date and times of sessions
80B2d Conditions of entry
80B2e Conditions for bidding and play
80B2f Supplementary regulations
80B2g Appointing assistants and other staff
80B2h Entries and seeding
80B2i Conditions of play
80B2j Collecting scores and keeping the official record
80B2k Arrangements for appeals
80B2l Any other powers and duties under these Laws
81    The Director
81A   Official Status
81B   Restrictions and Responsibilities
81B1  Technical management of the tournament
81B2  Director bound by the Laws and regulations
81C   Director's Duties and Powers
81C1  Maintain discipline and orderly progress
81C2  Administer and interpret the Laws; advise players of their rights
81C3  Rectify errors and irregularities within the correction period
81C4  Assess rectifications; powers under Laws 90 and 91
81C5  Waive rectification at the non-offending side's request
81C6  Settle disputes
81C7  Refer matters to an appropriate committee
81C8  Report results and handle other matters
81D   Delegation of Duties
82    Rectification of Errors of Procedure
82A   Director's Duty
82B   Correction of Error
82B1  Award an adjusted score
82B2  Require, postpone or cancel the play of a board
82B3  Use any other power given by these Laws
82C   Director's Error
83    Notification of the Right to Appeal
84    Rulings on Agreed Facts
84A   No Rectification
84B   Law Prescribes Rectification
84C   Player's Option
84D   Director's Option
85    Rulings on Disputed Facts
85A   Director's Assessment
85A1  Balance of probabilities
85A2  Ruling on the facts determined
85B   Facts Not Determined
86    In Team Play or Similar
86A   Average Score in IMP Play
86B   Non-balancing Adjustments - Knockout Play
86C   Substitute Board
86D   Result Obtained at Other Table
87    Fouled Board
87A   Definition
87B   Scoring
88    Award of Indemnity Points
89    Rectification in Individual Events
90    Procedural Penalties
90A   Director's Authority
90B   Offences Subject to Procedural Penalty
90B1  Late arrival
90B2  Unduly slow play
90B3  Discussion audible at another table
90B4  Unauthorised comparison of scores
90B5  Touching another player's cards
90B6  Placing cards in the wrong pocket
90B7  Errors of procedure
90B8  Failure to comply promptly with regulations or the Director's instructions
91    Penalize or Suspend
91A   Director's Power
91B   Right to Disqualify
92    Right to Appeal
92A   Contestant's Right to Appeal
92B   Time of Appeal
92C   How to Appeal
92D   Concurrence of Appellants
92D1  Pairs event: both members of the pair concur
92D2  Team event: the captain concurs
93    Procedures of Appeal
93A   No Appeals Committee
93B   Appeals Committee Available
93B1  Chief Director decides matters solely of law or regulation
93B2  Chief Director refers all other appeals to the committee
93B3  Committee's powers
93C   Further Appeal Options
93C1  Regulating Authority may establish further appeal procedures
93C2  Referral to the Regulating Authority
93C3  Urgent appeals; varying the procedures
93C3a Final decision assigned to the tournament's appeals committee
93C3b Stages of the procedure eliminated or varied after prior announcement
"""

EDITION_2017 = """
1     The Pack - Rank of Cards and Suits
2     The Duplicate Boards
3     Arrangement of Tables
4     Partnerships
5     Assignment of Seats
5A    Initial Position
5B    Change of Direction or Table
6     The Shuffle and Deal
7     Control of Board and Cards
7A    Placement of Board
7B    Removal of Cards from Board
7C    Returning Cards to Board
7D    Responsibility for Procedures
8     Sequence of Rounds
8A    Movement of Boards and Players
8B    End of Round
8C    End of Last Round and End of Session
9     Procedure Following an Irregularity
9A    Drawing Attention to an Irregularity
9B    After Attention Is Drawn to an Irregularity
9C    Premature Correction of an Irregularity
10    Assessment of Rectification
10A   Right to Determine Rectification
10B   Cancellation of Enforcement or Waiver of Rectification
10C   Choice after Irregularity
11    Forfeiture of the Right to Rectification
11A   Action by Non-offending Side
11B   Penalty after Forfeiture of the Right to Rectification
12    Director's Discretionary Powers
12A   Power to Award an Adjusted Score
12A1  Laws provide no indemnity for the type of violation
12A2  Normal play of the board impossible: artificial adjusted score
12A3  Incorrect rectification of an irregularity
12B   Objectives of Score Adjustment
12B1  Redress damage and take away any advantage gained by the infraction
12B2  No adjustment because the rectification is too severe or too favourable
12C   Awarding an Adjusted Score
12C1  Assigned adjusted score
12C1a Assigned adjusted score replaces the table result
12C1b Extremely serious error or gambling action by the non-offending side
12C1c Weighted assigned adjusted score
12C1d Possibilities numerous or not obvious: artificial adjusted score
12C1e Most favourable likely and most unfavourable probable result, in place of weighting
12C1f Scores awarded to the two sides need not balance
12C2  Artificial adjusted score
12C2a Average plus, average or average minus according to responsibility
12C2b
12C2c
12C3  Individual events
12C4
13    Incorrect Number of Cards
14    Missing Card
15    Wrong Board or Hand
16    Authorised and Unauthorised Information
16A   Players' Use of Information
16A1  Information a player may use
16A1a Legal calls and plays of the current board
16A1b Authorised information from a withdrawn action
16A1c Information authorised by law or regulation
16A1d Information held before taking the hand from the board
16A2  Own score, opponents' traits, tournament regulations
16A3  No call or play based on extraneous information
16A4  Breach of this Law: score adjusted
16B   Extraneous Information from Partner
16B1  Partner may not use extraneous information
16B1a Partner may not choose a call or play demonstrably suggested
16B1b Definition of a logical alternative
16B2  Reserving the right to summon the Director
16B3  Summoning the Director when play ends
16C   Information from Withdrawn Calls and Plays
16C1  Non-offending side: information authorised
16C2  Offending side: information unauthorised
16D   Extraneous Information from Other Sources
16D1  Director to be notified forthwith
16D2  Director's options before the auction
16D2a Adjust the players' positions
16D2b Order a redeal
16D2c Allow play, ready to adjust the score
16D2d Award an artificial adjusted score
16D3  Information received after the auction has begun
17    The Auction Period
18    Bids
18A   Proper Form
18B   To Supersede a Bid
18C   Sufficient Bid
18D   Insufficient Bid
18E   Rank of the Denominations
18F   Different Methods
19    Doubles and Redoubles
19A   Doubles
19B   Redoubles
19C   Double or Redouble Superseded
19D   Scoring a Doubled or Redoubled Contract
20    Review and Explanation of Calls
20A   Call Not Clearly Heard
20B   Review of Auction during Auction Period
20C   Review after Final Pass
20C1  Defender may ask whether it is his opening lead
20C2  Review of the auction at the first turn to play
20D   Who May Review the Auction
20E   Correction of Error in Review
20F   Explanation of Calls
20F1  Explanation during the auction
20F2  Explanation during the play period
20F3  Asking about a single call
20F4  Player's own mistaken explanation
20F5  Partner's mistaken explanation
20F5a No correction or indication during the auction
20F5b Summon the Director and inform the opponents at the first legal opportunity
20F6  Action based on misinformation from an opponent
20G   Incorrect Procedure
20G1  Question asked solely for partner's benefit
20G2
20G3
21    Call Based on Misinformation
21A   Call Based on Caller's Misunderstanding
21B   Call Based on Misinformation from an Opponent
21B1  Change of call after misinformation
21B1a Call may be changed when affected by misinformation
21B1b Mistaken explanation presumed rather than mistaken call
21B2  Left-hand opponent may change his subsequent call
21B3  Too late to change a call: adjusted score
22    Procedure after the Bidding Has Ended
22A   End of Auction
22B   End of Auction Period
23    Comparable Call
23A   Comparable call defined
23B
23C
24    Card Exposed or Led during the Auction Period
25    Legal and Illegal Changes of Call
25A   Unintended Call
25A1  Unintended call replaced before partner calls
25A2
25A3
25A4
25B   Intended Call
25B1  Left-hand opponent may accept the substituted call
25B2  Substituted call cancelled: original call stands
25B3
26    Call Withdrawn, Lead Restrictions
26A
26B
27    Insufficient Bid
27A   Acceptance of Insufficient Bid
27A1  Left-hand opponent may accept the insufficient bid
27A2  Insufficient bid out of rotation: Law 31 applies
27B   Insufficient Bid Not Accepted
27B1  Correction without further rectification
27B1a Lowest sufficient bid in the same denomination(s)
27B1b Comparable call substituted
27B2  Other sufficient bid or pass: partner must pass
27B3  Double or redouble substituted
27B4  Another insufficient bid substituted
27C   Premature Replacement
27D   Non-offending Side Damaged
28    Calls Considered to Be in Rotation
28A   RHO Required to Pass
28B   Call by Correct Player Cancelling Call Out of Rotation
29    Procedure after a Call Out of Rotation
29A   Forfeiture of Right to Rectification
29B   Out-of-rotation Call Cancelled
29C   Call Out of Rotation Is Artificial
30    Pass Out of Rotation
30A   Before Any Player Has Bid
30B   After Any Player Has Bid
30C   When Pass Is Artificial
31    Bid Out of Rotation
31A   RHO's Turn
31B   Partner's or LHO's Turn
32    Double or Redouble Out of Rotation
33    Simultaneous Calls
34    Retention of the Right to Call
35    Inadmissible Calls
36    Inadmissible Doubles and Redoubles
36A   Offender's LHO Calls before Rectification
36B   Offender's LHO Does Not Call before Rectification
37    Action Violating Obligation to Pass
37A   Offender's LHO Calls before Rectification
37B   Offender's LHO Does Not Call before Rectification
38    Bid of More Than Seven
39    Call after the Final Pass
40    Partnership Understandings
40A   Players' Systemic Agreements
40A1  Partnership understandings
40A1a Understandings reached explicitly or implicitly
40A1b Duty to make understandings available to opponents
40A2  Information must arise from the calls, plays and conditions of the deal
40A3  Call or play without prior announcement
40B   Special Partnership Understandings
40B1  Special partnership understandings defined
40B2  Powers of the Regulating Authority
40B2a Allow, disallow or allow conditionally any special understanding
40B3
40B4  Damage from failure to disclose: adjusted score
40C   Deviation from System and Psychic Action
40C1  Deviation allowed if partner has no more reason to be aware
40C2  No obligation to disclose a deviation
40C3  Aids to memory; repeated violations
40C3a No aids to memory, calculation or technique
40C3b Repeated violation of disclosure requirements
41    Commencement of Play
41A   Face-down Opening Lead
41B   Review of Auction and Questions
41C   Opening Lead Faced
41D   Dummy's Hand
42    Dummy's Rights
42A   Absolute Rights
42B   Qualified Rights
43    Dummy's Limitations
44    Sequence and Procedure of Play
44A   Lead to a Trick
44B   Subsequent Plays to a Trick
44C   Requirement to Follow Suit
44D   Inability to Follow Suit
44E   Tricks Containing Trumps
44F   Tricks Not Containing Trumps
44G   Leads to Subsequent Tricks
45    Card Played
45A   Play of Card from a Hand
45B   Play of Card from Dummy
45C   Compulsory Play of Card
45C1  Defender's card held so that partner could see it
45C2  Declarer's card from his hand
45C2a Held face up, touching or nearly touching the table
45C2b Held in a position indicating it has been played
45C3  Card of dummy's deliberately touched by declarer
45C4  Card named or designated
45C4a Card named or designated must be played
45C4b Inadvertent designation may be changed
45C5  Penalty card to be played under Law 50
45D   Card Misplayed by Dummy
45E   Fifth Card Played to a Trick
45E1  By a defender
45E2  By declarer
45F   Dummy Indicates Card
45G   Turning the Trick
46    Incomplete or Erroneous Call of Card from Dummy
46A   Proper Form for Designating Dummy's Card
46B   Incomplete or Erroneous Call
47    Retraction of Card Played
47A   In Course of Rectification
47B   To Correct an Illegal Play
47C   To Change an Inadvertent Designation
47D   Following Opponent's Change of Play
47E   Change of Play Based on Misinformation
47F   Other Retraction
48    Exposure of Declarer's Cards
48A   Declarer Exposes a Card
48B   Declarer Faces Cards
49    Exposure of a Defender's Cards
50    Disposition of Penalty Card
50A   Penalty Card Remains Exposed
50B   Major or Minor Penalty Card?
50C   Disposition of Minor Penalty Card
50D   Disposition of Major Penalty Card
50D1  Offender to play
50D1a Major penalty card played at the first legal opportunity
50D1b Following suit and lead or play restrictions take precedence
50D2  Offender's partner to lead
50D2a Declarer requires or prohibits the lead of the suit
50D2b Declarer does not require or prohibit a lead
50E   Information from a Penalty Card
50E1  Requirements for playing a penalty card: authorised
50E2  Other information from the penalty card: unauthorised to partner
50E3  Damage from the information: adjusted score
51    Two or More Penalty Cards
51A   Offender to Play
51B   Offender's Partner to Lead
52    Failure to Lead or Play a Penalty Card
52A   Defender Fails to Lead or Play Penalty Card
52B   Defender Plays Another Card
53    Lead Out of Turn Accepted
54    Faced Opening Lead Out of Turn
54A   Declarer Spreads His Hand
54B   Declarer Accepts Lead
54C   Declarer Must Accept Lead
54D   Declarer Refuses Opening Lead
54E   Opening Lead by the Wrong Side
55    Declarer's Lead Out of Turn
55A   Declarer's Lead Accepted
55B   Declarer Required to Retract Lead
55C   Declarer Might Obtain Information
56    Defender's Lead Out of Turn
57    Premature Lead or Play by a Defender
57A   Premature Play or Lead to Next Trick
57B   Offender's Partner Cannot Comply
57C   Declarer or Dummy Has Played
58    Simultaneous Leads or Plays
58A   Simultaneous Plays by Two Players
58B   Simultaneous Cards from One Hand
59    Inability to Lead or Play as Required
60    Play after an Illegal Play
60A   Play of Card after Irregularity
60B   Defender Plays before Required Lead by Declarer
60C   Play by Offending Side before Assessment of Rectification
61    Failure to Follow Suit - Inquiries Concerning a Revoke
61A   Definition of Revoke
61B   Right to Inquire about a Possible Revoke
61B1  Declarer may ask a defender
61B2  Dummy's inquiries
61B2a Dummy may ask declarer
61B2b Dummy may not ask a defender
61B3  Defenders may ask declarer and, unless prohibited, each other
62    Correction of a Revoke
62A   Revoke Must Be Corrected
62B   Correcting a Revoke
62B1  Defender's unfaced card becomes a major penalty card
62B2  Card from declarer's or dummy's hand, or a faced card: replaced
62C   Subsequent Cards Played to Trick
62C1  Non-offending side may withdraw cards played after the revoke
62C2  Offender's partner may then withdraw his card
62C3
62D   Revoke on Trick Twelve
62D1  Revoke on trick twelve must be corrected
62D2  Offender's partner had not yet played to trick twelve
63    Establishment of a Revoke
63A   Revoke Becomes Established
63A1  Offending side leads or plays to the following trick
63A2  Offending side names or designates a card for the following trick
63A3  Offending side makes or agrees to a claim or concession
63B   Revoke May Not Be Corrected
64    Procedure after Establishment of a Revoke
64A   Automatic Trick Adjustment
64A1  Offending player won the revoke trick: revoke trick and one more transferred
64A2  Offending player did not win the revoke trick: one trick transferred
64B   No Trick Adjustment
64B1  Offending side won neither the revoke trick nor any subsequent trick
64B2  Subsequent revoke in the same suit by the same player
64B3  Revoke by failing to play a faced card
64B4  Attention drawn after the non-offending side called on the next deal
64B5  Attention drawn after the round has ended
64B6  Revoke on trick twelve
64B7  Both sides revoked on the same board
64C   Director Responsible for Equity
65    Arrangement of Tricks
65A   Completed Trick
65B   Keeping Track of the Ownership of Tricks
65C   Orderliness
65D   Agreement on Results of Play
66    Inspection of Tricks
66A   Current Trick
66B   Own Last Card
66C   Quitted Tricks
66D   After the Conclusion of Play
67    Defective Trick
67A   Before Both Sides Play to Next Trick
67B   After Both Sides Play to Next Trick
68    Claim or Concession of Tricks
68A   Claim Defined
68B   Concession Defined
68B1  Statement that a contestant will lose tricks
68B2  Defender's concession with partner's immediate objection
68C   Clarification Required for Claim
68D   Play Ceases
68D1
68D2
68D2a
68D2b
?69   Agreed Claim or Concession
69A   Agreement Established
69B   Agreement cancelled within the correction period
69B1  Player agreed to lose a trick his side had won
69B2  Player agreed to lose a trick his side would likely have won
70    Contested Claim or Concession
70A   General Objective
70B   Clarification Statement Repeated
70B1  Claimer repeats his clarification statement
70B2  Director hears the opponents' objections
70B3  Players may be required to face their remaining cards
70C   There Is an Outstanding Trump
70C1  Claimer made no statement about the trump
70C2  Claimer may have been unaware of the trump
70C3  A trick could be lost to the trump by any normal play
70D   Director's Considerations
70D1  No successful line not in the statement if a less successful normal line exists
70D2  Defender's claim depending on partner's choice of play
70D3  Play after the claim as evidence
70E   Unstated Line of Play
70E1  Unstated line depending on finding a card with one opponent
70E2  Regulating Authority may specify the order of play in a suit
71    Concession Cancelled
71.1  Conceded trick his side had in fact won
71.2  Conceded trick that could not be lost by any normal play
72    General Principles
72A   Observance of Laws
72B   Infraction of Law
73    Communication, Tempo and Deception
73A   Appropriate Communication between Partners
73A1  Communication only by calls and plays
73A2  Calls and plays without special emphasis, mannerism or undue hesitation
73B   Inappropriate Communication between Partners
73B1  Communication through the manner of calls and plays, remarks or gestures
73B2  Prearranged methods of communication
73C   Player Receives Unauthorised Information from Partner
73C1  Player must avoid taking any advantage from partner's unauthorised information
73C2  Penalty for a violation; adjustment if the opponents are damaged
73D   Variations in Tempo or Manner
73D1  Steady tempo and unvarying manner
73D2  Attempting to mislead an opponent
73E   Deception
73E1  Deception through a call or play is appropriate
73E2  False inference from an opponent's action without a bridge reason: adjusted score
74    Conduct and Etiquette
74A   Proper Attitude
74A1  Courteous attitude at all times
74A2  Avoiding remarks or actions that cause annoyance or embarrassment
74A3  Correct and uniform procedure in calling and playing
74B   Etiquette
74B1  Paying insufficient attention to the game
74B2  Gratuitous comments during auction and play
74B3  Detaching a card before it is one's turn to play
74B4  Prolonging play unnecessarily
74B5  Summoning and addressing the Director discourteously
74C   Violations of Procedure
74C1  Different designations for the same call
74C2  Indicating approval or disapproval of a call or play
74C3  Indicating the expectation or intention of winning or losing a trick
74C4  Comments or actions drawing attention to a significant occurrence
74C5  Looking intently at another player or his hand
74C6  Showing an obvious lack of further interest in a deal
74C7  Varying tempo to disconcert an opponent
74C8  Leaving the table needlessly before the round ends
75    Mistaken Explanation or Mistaken Call
75A   Mistake Causing Unauthorised Information
75B   Mistaken Explanation
75C   Mistaken Call
76    Spectators
76A   Control
76B   At the Table
76C   Participation
76D   Status
77    Duplicate Bridge Scoring Table
78    Methods of Scoring
78A   Matchpoint Scoring
78B   International Matchpoint Scoring
78C   Total Point Scoring
78D   Conditions of Contest
79    Tricks Won
79A   Agreement on Tricks Won
79A1  Agreed before the hands are returned to the board
79A2  No knowingly accepting a trick not won or conceding a trick not lost
79B   Disagreement on Tricks Won
79B1  Claim or concession: Law 69 applies
79B2  Otherwise the Director rules on the score to be recorded
79C   Error in Score
79C1  Correction period for an error in computing or recording the score
79C2  Corrections after the correction period
80    Regulation and Organisation
80A   The Regulating Authority
80A1  Who is the Regulating Authority
80A1a The World Bridge Federation
80A1b The Zonal authority
80A1c The National Bridge Organisation
80A2  Responsibilities and powers
80A3  Delegation of powers
80B   Tournament Organiser
80B1  Recognition of the Tournament Organiser
80B2  Powers and duties of the Tournament Organiser
81    The Director
81A   Official Status
81B   Restrictions and Responsibilities
81B1  Technical management of the tournament
81B2  Director bound by the Laws and regulations
81C   Director's Duties and Powers
81C1  Maintain discipline and orderly progress
81C2  Administer and interpret the Laws; advise players of their rights
81C3  Rectify errors and irregularities within the correction period
81C4  Assess rectifications; powers under Laws 90 and 91
81C5  Waive rectification at the non-offending side's request
81C6  Settle disputes
81C7  Refer matters to an appropriate committee
81C8  Report results and handle other matters
81D   Delegation of Duties
82    Rectification of Errors of Procedure
82A   Director's Duty
82B   Correction of Error
82B1  Award an adjusted score
82B2  Require, postpone or cancel the play of a board
82B3  Use any other power given by these Laws
82C   Director's Error
83    Notification of the Right to Appeal
84    Rulings on Agreed Facts
84A   No Rectification
84B   Law Prescribes Rectification
84C   Player's Option
84D   Director's Option
85    Rulings on Disputed Facts
85A   Director's Assessment
85A1  Balance of probabilities
85A2  Ruling on the facts determined
85B   Facts Not Determined
86    In Team Play or Similar
86A   Average Score in IMP Play
86B   Non-balancing Adjustments - Knockout Play
86C   Substitute Board
86D   Result Obtained at Other Table
87    Fouled Board
87A   Definition
87B   Scoring
?88   Award of Indemnity Points
?89   Rectification in Individual Events
90    Procedural Penalties
90A   Director's Authority
90B   Offences Subject to Procedural Penalty
90B1  Late arrival
90B2  Unduly slow play
90B3  Discussion audible at another table
90B4  Unauthorised comparison of scores
90B5  Touching another player's cards
90B6  Placing cards in the wrong pocket
90B7  Errors of procedure
90B8  Failure to comply promptly with regulations or the Director's instructions
91    Penalize or Suspend
91A   Director's Power
91B   Right to Disqualify
92    Right to Appeal
92A   Contestant's Right to Appeal
92B   Time of Appeal
92C   How to Appeal
92D   Concurrence of Appellants
92D1  Pairs event: both members of the pair concur
92D2  Team event: the captain concurs
93    Procedures of Appeal
93A   No Appeals Committee
93B   Appeals Committee Available
93B1  Chief Director decides matters solely of law or regulation
93B2  Chief Director refers all other appeals to the committee
93B3  Committee's powers
93C   Further Appeal Options
93C1  Regulating Authority may establish further appeal procedures
93C2  Referral to the Regulating Authority
93C3  Urgent appeals; varying the procedures
93C3a Final decision assigned to the tournament's appeals committee
93C3b Stages of the procedure eliminated or varied after prior announcement
"""

EDITIONS = {"1997": EDITION_1997, "2007": EDITION_2007, "2017": EDITION_2017}
