"""The passwords people choose most often (from the public "most common passwords" lists),
refused when someone chooses a password: they are the first guesses of anyone trying.
Shipped with the package and small on purpose: no download, no file to find at run time.
Compared case-folded, and also with trailing digits and symbols taken off ("password1!")."""

from __future__ import annotations

COMMON_PASSWORDS = frozenset(
    """
    123456 password 12345678 qwerty 123456789 12345 1234 111111 1234567 dragon 123123
    baseball abc123 football monkey letmein 696969 shadow master 666666 qwertyuiop
    123321 mustang 1234567890 michael 654321 superman 1qaz2wsx 7777777 121212 000000
    qazwsx 123qwe killer trustno1 jordan jennifer zxcvbnm asdfgh hunter buster soccer
    harley batman andrew tigger sunshine iloveyou 2000 charlie robert thomas hockey
    ranger daniel starwars klaster 112233 george computer michelle jessica pepper 1111
    zxcvbn 555555 11111111 131313 freedom 777777 pass maggie 159753 aaaaaa ginger
    princess joshua cheese amanda summer love ashley nicole chelsea biteme matthew
    access yankees 987654321 dallas austin thunder taylor matrix mobilemail mom
    monitor monitoring montana moon moscow passw0rd p@ssw0rd p@ssword password1
    passwort welcome welcome1 admin administrator root toor login guest changeme
    default secret letmein1 qwerty123 qwerty1 1q2w3e4r 1q2w3e4r5t 1q2w3e 1qaz2wsx3edc
    zaq12wsx zaq1zaq1 q1w2e3r4 q1w2e3r4t5 a1b2c3d4 abcd1234 abcdef abcdefg abcdefgh
    asdf asdfasdf asdfghjkl qweasdzxc qwertyui qwertyu azerty azertyuiop qwertz
    1234qwer 123abc 123456a a123456 aa123456 abc12345 password123 password12
    iloveyou1 loveme lovely lover babygirl baby angel angels beautiful butterfly
    flower flowers friends friend forever family football1 soccer1 baseball1
    basketball hello hello123 hellokitty whatever anything nothing something
    secret1 sunshine1 superstar star stars jesus christ blessed god heaven
    internet google yahoo facebook linkedin twitter instagram apple samsung
    iphone android windows microsoft linux ubuntu server database oracle mysql
    cookie chocolate banana orange purple yellow silver golden diamond
    pokemon naruto minecraft fortnite pikachu spiderman ironman mercedes ferrari
    porsche corvette jaguar tiger lion eagle dolphin falcon phoenix wolf bear
    hunter2 shadow1 master1 dragon1 monkey1 michael1 jordan23 liverpool arsenal
    barcelona realmadrid juventus manchester chelsea1 olympiakos panathinaikos
    aek paok hellas ellada athens athina greece kalimera agapi agapimou
    thessaloniki kolokotronis zeus hermes apollo athena olympus
    biriba buraco burraco canasta rummy cards poker joker ace spades hearts
    diamonds clubs score scorekeeper scoreboard game games player gamer
    qwerty12 qwerty1234 12341234 12344321 11223344 00000000 88888888 99999999
    22222222 33333333 44444444 55555555 66666666 77777777 123654 147258369
    147258 258369 159357 741852963 963852741 789456123 789456 456789 147852
    zxcvbnm1 asdfghjk 1qazxsw2 2wsx3edc 3edc4rfv mnbvcxz poiuytrewq lkjhgfdsa
    trustno11 access14 mustang1 shadow12 superman1 batman1 letmein12 starwars1
    charlie1 thomas1 daniel1 jessica1 ashley1 nicole1 princess1 sunshine12
    tinkerbell cocacola pepsi snoopy garfield mickey minnie disney scooby
    matrix1 hacker hacking security secure private personal qazwsxedc
    test test123 testing tester demo sample example temp temporary user
    username user123 admin123 admin1 root123 guest123 pass123 pass1234
    passpass password! p4ssword pa55word pa55w0rd passw0rd1 letmein!
    iloveu iloveyou! love123 love1234 lovelove fuckyou fuckoff asshole
    whatever1 qwertyqwerty abcabc abc123456 michael12 jennifer1 andrea
    maria mariana marina helena eleni elena sofia maria123 giorgos george1
    nikos dimitris kostas giannis yiannis maria1 katerina christina
    """.split()  # noqa: SIM905 - a few hundred words read better as text than as a list
)
