# Values given on make's command line or in the environment are untrusted
# (a model's file name is the user's, or a download's): a value of one of
# the variables below that holds anything but the characters a path, board,
# strategy or region list needs is refused before anything is built, with
# one line and make's exit status 2. The check reads each value unexpanded
# ($(value ...)), so a value such as '$(shell ...)' is never run. The
# recipes pass the values to the scripts through the environment (mk/run.mk),
# never pasted into a command line.
#
#   single values: A-Z a-z 0-9 . _ / + , - = @ :
#   lists (ARGS_LIST_VARIABLES): the same and single spaces between words
# (no '$', quote, backquote, '*', '?', '[', '(', ';', '&', '|', '<', '>',
# '\', '#', '!', tab or newline; a path with one is refused: rename it).
ARGS_VARIABLES := MODEL INPUT OUTPUT BOARD STRATEGY OVERLAP FUSE PROFILE MIX PD_OUT \
  ARENAPLAN_CLI ARENAPLAN_SHARED REFERENCE_DIR BUILD DEMO_MODEL DEMO_BOARD \
  SEANET_DIR
ARGS_LIST_VARIABLES := REGIONS PD_STRATEGIES REF_BOARDS MODELS_BOARDS \
  PD_TEST_BOARDS CORPUS_BOARDS CORPUS_BOARD_SET CORPUS_MODELS SEANET_BOARDS \
  SEANET_MODELS

args_allowed := a b c d e f g h i j k l m n o p q r s t u v w x y z \
  A B C D E F G H I J K L M N O P Q R S T U V W X Y Z \
  0 1 2 3 4 5 6 7 8 9 . _ / + - = @ :
args_comma := ,
args_empty :=
args_space := $(args_empty) $(args_empty)
# $(call args_strip,CHARS,TEXT): TEXT without any of the words of CHARS.
args_strip = $(if $(1),$(call args_strip,$(wordlist 2,$(words $(1)),$(1)),$(subst $(firstword $(1)),,$(2))),$(2))
# $(call args_rest,NAME): what is left of NAME's unexpanded value once the
# allowed characters (and commas) are removed.
args_rest = $(subst $(args_comma),,$(call args_strip,$(args_allowed),$(value $(1))))
args_given = $(filter command line environment environment override,$(origin $(1)))

$(foreach v,$(ARGS_VARIABLES),$(if $(call args_given,$(v)),\
  $(if $(call args_rest,$(v)),\
    $(error $(v): the value holds a character make run does not take (allowed: letters, digits and . _ / + - = @ : $(args_comma))))))
$(foreach v,$(ARGS_LIST_VARIABLES),$(if $(call args_given,$(v)),\
  $(if $(subst $(args_space),,$(call args_rest,$(v))),\
    $(error $(v): the value holds a character make run does not take (allowed: letters, digits, spaces and . _ / + - = @ : $(args_comma))))))
